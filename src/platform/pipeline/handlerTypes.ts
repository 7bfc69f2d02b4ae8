import type { Context } from 'koa';
import type { EncodedJson } from '../answers/encodedJson.js';
import type { Writes } from '../answers/headers.js';
import type { AdmitStep, OperationPolicy, Presenter } from './operationPolicy.js';

/**
 * Typing of the handler maps: each service lists its operations with the
 * request and response types generated from its contract, and its handler map
 * must have exactly one function per operation with matching types.
 */

/** The generated `XxxData` and `XxxResponses` types of one operation, and the headers each status declares. */
export interface OperationTypes {
  data: { path?: unknown; query?: unknown; headers?: unknown; body?: unknown };
  responses: Record<number, unknown>;
  /** By status, the headers the contract declares (required ones required), as `contract.gen.ts` lists them. */
  headers: Record<number, object>;
}

/** The operations of a contract by operationId (`Operations` of `generated/<service>/contract.gen.ts`). */
export type OperationMap<Ops> = { [K in keyof Ops]: OperationTypes };

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

/** Which required response headers an operation's admit step and presenter write, by name. */
export interface PolicyWrites {
  admit?: string;
  present?: string;
}

/** Per operation, the headers its policy writes (see `Writes`); an operation not named writes none. */
export type PolicyHeaders<Ops> = { readonly [K in keyof Ops]?: PolicyWrites };

/** The header names the policy of operation `K` writes. */
type WrittenBy<W, K> = K extends keyof W
  ?
      | ([NonNullable<W[K]>] extends [{ admit: infer A extends string }] ? A : never)
      | ([NonNullable<W[K]>] extends [{ present: infer P extends string }] ? P : never)
  : never;

type HeadersAt<H, S> = S extends keyof H ? H[S] : {};

/** An answer's `headers`: required when the contract requires any; others (`Content-Type`) may come too. */
type AnswerHeaders<Declared> = {} extends Declared
  ? { headers?: Declared & Record<string, string> }
  : { headers: Declared & Record<string, string> };

/**
 * A successful answer: one of the statuses the contract declares, with its
 * body type and the headers the contract requires on that status, except
 * those `Written` by the operation's policy (a rate limit's, a presenter's
 * `ETag`): one left out fails the type check.
 */
export type Answer<Op extends OperationTypes, Written extends string = never> = {
  [S in keyof Op['responses'] & number]: {
    status: S;
    /** The contract's body, or its bytes already encoded (a kept answer). */
    body: Op['responses'][S] | EncodedJson<Op['responses'][S]>;
  } & AnswerHeaders<Omit<HeadersAt<Op['headers'], S>, Written>>;
}[keyof Op['responses'] & number];

export type Handler<Op extends OperationTypes, Principal, Written extends string = never> = (
  input: HandlerInput<Op['data'], Principal>,
) => Answer<Op, Written> | Promise<Answer<Op, Written>>;

/** One handler per operation; a missing or mistyped one, or an answer without a header it must carry, fails the type check. */
export type HandlerMap<Ops extends OperationMap<Ops>, Principal, W extends PolicyHeaders<Ops> = {}> = {
  [K in keyof Ops]: Handler<Ops[K], Principal, WrittenBy<W, K>>;
};

/** An admit step and a presenter that write what `D` says they do. */
type WritingPolicy<Principal, D> = ([D] extends [{ admit: infer A extends string }]
  ? { admit: AdmitStep<Principal> & Writes<A> }
  : unknown) &
  ([D] extends [{ present: infer P extends string }] ? { present: Presenter & Writes<P> } : unknown);

/**
 * One policy per operation (admit steps, presenter): like the handler map, a
 * missing or unknown operationId fails the type check, and so does a policy
 * without the step or presenter that writes what `W` says it does.
 */
export type PolicyTable<Ops extends OperationMap<Ops>, Principal, W extends PolicyHeaders<Ops> = {}> = {
  readonly [K in keyof Ops]: OperationPolicy<Principal> &
    WritingPolicy<Principal, K extends keyof W ? NonNullable<W[K]> : {}>;
};

/** True only when A and B are the same set of names (used to tie a handler map to the generated SDK). */
export type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Operation names of a generated SDK module (its exported functions). */
export type SdkOperations<M> = { [K in keyof M]: M[K] extends (...args: never[]) => unknown ? K : never }[keyof M];
