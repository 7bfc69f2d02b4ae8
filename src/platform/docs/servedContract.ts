import type { Context } from 'koa';
import { deepFreeze } from '../answers/frozen.js';
import type { Contract } from '../contract/types.js';

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
  // One moved document per serving base, frozen, so a presenter that keeps the text of frozen answers
  // (publishing's, profiles') serialises it once; the few most recent bases only, as `Host` is the client's.
  const moved = new Map<string, { [key: string]: unknown }>();
  const at = (base: string) => {
    let kept = moved.get(base);
    if (kept) {
      moved.delete(base);
    } else {
      // A copy: the contract's own objects stay unfrozen for whatever compiles them later.
      kept = deepFreeze(structuredClone(withServersAt(document, written!, base)));
      if (moved.size >= KEPT_BASES) moved.delete(moved.keys().next().value!);
    }
    moved.set(base, kept);
    return kept;
  };
  return async ({ ctx }: { ctx: Context }) => {
    const base = servingBase(ctx);
    return { status: 200 as const, body: written ? at(base) : contract.document };
  };
};

/** How many serving bases keep their moved document (`PUBLIC_URL` makes it one). */
const KEPT_BASES = 8;

/** A host as a browser can send it: a name or IPv4 address, or an IPv6 one in brackets, and an optional port; nothing else. */
const PLAIN_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the request reached (behind a trusted proxy, its scheme and host), only when its host is a
 * plain host and port: a `Host` header is the client's to write, so anything else is no origin at all.
 */
export function requestOrigin(ctx: Context): string | undefined {
  return PLAIN_HOST.test(ctx.host) && (ctx.protocol === 'http' || ctx.protocol === 'https')
    ? `${ctx.protocol}://${ctx.host}`
    : undefined;
}

/**
 * Where this deployment is, as the served contracts and docs name it: `PUBLIC_URL` when set (never
 * anything a request says); else the origin the request reached, when it is a plain one (`http://localhost`
 * otherwise). Without `PUBLIC_URL` the answer depends on `Host`, and says so (`Vary: Host`).
 */
export function servingBase(ctx: Context): string {
  const publicUrl = (ctx as Context & { publicUrl?: string }).publicUrl;
  if (publicUrl) return publicUrl;
  ctx.vary('Host');
  return requestOrigin(ctx) ?? 'http://localhost';
}

export interface ServerObject {
  url: string;
  variables?: Record<string, { default: string }>;
}

/** A server's URL with its variables at their defaults. */
export const expandedServerUrl = (server: ServerObject) =>
  server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');

/** The origin a server's URL has with its variables at their defaults. */
export const serverOrigin = (server: ServerObject) => new URL(expandedServerUrl(server)).origin;

/** The document with every server (the document's, a path's, an operation's) moved from `written` to `base`. */
function withServersAt(
  document: { servers?: ServerObject[]; paths?: Record<string, Record<string, unknown>> },
  written: string,
  base: string,
) {
  const move = (servers: ServerObject[] | undefined) =>
    servers?.map((server) => ({
      ...server,
      url: server.url.replaceAll(written, base),
      ...(server.variables && {
        variables: Object.fromEntries(
          Object.entries(server.variables).map(([name, variable]) => [
            name,
            { ...variable, default: variable.default.replaceAll(written, base) },
          ]),
        ),
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
