import type { Context } from 'koa';
import type { Contract } from './contract.js';
import type { OperationPolicy } from './service.js';

/**
 * Typing of the handler maps: each service lists its operations with the
 * request and response types generated from its contract, and its handler map
 * must have exactly one function per operation with matching types.
 */

/** The generated `XxxData` and `XxxResponses` types of one operation. */
export interface OperationTypes {
  data: { path?: unknown; query?: unknown; headers?: unknown; body?: unknown };
  responses: Record<number, unknown>;
}

type Field<D, K extends 'path' | 'query' | 'body'> = D extends { [P in K]?: infer V } ? Exclude<V, undefined> : never;

/** What a handler receives: validated, coerced input and the resolved caller. */
export interface HandlerInput<D, Principal> {
  path: Field<D, 'path'>;
  query: Field<D, 'query'>;
  /** The validated JSON request body (operations that take one). */
  body: Field<D, 'body'>;
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  principal: Principal;
  requestId: string;
  /** The Koa context, for the rare handler that must touch it (cookies); most never do. */
  ctx: Context;
}

/** A successful answer: one of the statuses the contract declares, with its body type. */
export type Answer<R> = {
  [S in keyof R & number]: { status: S; body: R[S]; headers?: Record<string, string> };
}[keyof R & number];

export type Handler<Op extends OperationTypes, Principal> = (
  input: HandlerInput<Op['data'], Principal>,
) => Answer<Op['responses']> | Promise<Answer<Op['responses']>>;

/** One handler per operation; a missing or mistyped one fails the type check. */
export type HandlerMap<Ops extends { [K in keyof Ops]: OperationTypes }, Principal> = {
  [K in keyof Ops]: Handler<Ops[K], Principal>;
};

/**
 * One policy per operation (admit steps, presenter): like the handler map, a
 * missing or unknown operationId fails the type check.
 */
export type PolicyTable<Ops extends { [K in keyof Ops]: OperationTypes }, Principal> = {
  readonly [K in keyof Ops]: OperationPolicy<Principal>;
};

/** True only when A and B are the same set of names (used to tie a handler map to the generated SDK). */
export type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Operation names of a generated SDK module (its exported functions). */
export type SdkOperations<M> = { [K in keyof M]: M[K] extends (...args: never[]) => unknown ? K : never }[keyof M];

/** The `getOpenApiDocument` handler of every service: its contract as written, as JSON. */
export const openApiDocumentHandler = (contract: Contract) => async () => ({ status: 200 as const, body: contract.document });
