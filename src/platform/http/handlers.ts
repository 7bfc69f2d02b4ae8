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

/**
 * The `getOpenApiDocument` handler of every service: its contract as
 * written, as JSON, with its servers at the deployment's address: the
 * configured `PUBLIC_URL` (`app.context.publicUrl`), else the origin the
 * request reached (so a reader of a deployment sees that deployment, not
 * the contract's `localhost:8080`). The address only ever lands in JSON data.
 */
export const openApiDocumentHandler = (contract: Contract) => {
  const document = contract.document as { servers?: ServerObject[]; paths?: Record<string, Record<string, unknown>> };
  const written = document.servers?.[0] ? serverOrigin(document.servers[0]) : undefined;
  return async ({ ctx }: { ctx: Context }) => {
    const base = servingBase(ctx);
    return { status: 200 as const, body: written ? withServersAt(document, written, base) : contract.document };
  };
};

/** Where this deployment is, as the served contracts and docs name it: `PUBLIC_URL` when set, else the origin the request reached. */
export const servingBase = (ctx: Context): string => (ctx as Context & { publicUrl?: string }).publicUrl ?? `${ctx.protocol}://${ctx.host}`;

export interface ServerObject {
  url: string;
  variables?: Record<string, { default: string }>;
}

/** A server's URL with its variables at their defaults. */
export const expandedServerUrl = (server: ServerObject) => server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');

/** The origin a server's URL has with its variables at their defaults. */
export const serverOrigin = (server: ServerObject) => new URL(expandedServerUrl(server)).origin;

/** The document with every server (the document's, a path's, an operation's) moved from `written` to `base`. */
function withServersAt(document: { servers?: ServerObject[]; paths?: Record<string, Record<string, unknown>> }, written: string, base: string) {
  const move = (servers: ServerObject[] | undefined) =>
    servers?.map((server) => ({
      ...server,
      url: server.url.replaceAll(written, base),
      ...(server.variables && {
        variables: Object.fromEntries(Object.entries(server.variables).map(([name, variable]) => [name, { ...variable, default: variable.default.replaceAll(written, base) }])),
      }),
    }));
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => {
      const moved = Object.fromEntries(
        Object.entries(item).map(([key, value]) =>
          key === 'servers'
            ? [key, move(value as ServerObject[])]
            : value && typeof value === 'object' && 'servers' in value
              ? [key, { ...value, servers: move((value as { servers: ServerObject[] }).servers) }]
              : [key, value],
        ),
      );
      return [path, moved];
    }),
  );
  return { ...document, servers: move(document.servers), paths };
}
