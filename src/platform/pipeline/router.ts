import findMyWay from 'find-my-way';
import type { ContractOperation } from '../contract/types.js';

/** What a path and method resolve to. */
export type RouteMatch =
  | { kind: 'operation'; operation: ContractOperation; rawParams: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

type Method = findMyWay.HTTPMethod;
type Tree = ReturnType<typeof findMyWay>;

/**
 * Stands for `%` in the path find-my-way sees. find-my-way decodes a path
 * before matching it; here segments match as sent (an encoded digit is no
 * digit, a malformed escape still reaches validation and its 400). Node
 * refuses a request target with a byte outside ASCII, so no request's path
 * holds it; being Latin-1, it keeps V8's string one byte per character.
 */
const PERCENT = '\u00ff';
const NO_QUERY = Object.freeze({});
const noHandler = () => undefined;
/** Parameter names find-my-way reads whole (it ends a name at `-`, `.`, `(`). */
const PARAM_NAME = /^[A-Za-z0-9_]+$/;

/**
 * Matches request paths to contract operations with find-my-way (Fastify's
 * radix-tree router), built once at start-up (docs/decisions/router.md).
 * Two trees: the operations by method, and the paths alone, which give a
 * 405 the `Allow` of the best path the method missed. On top of
 * find-my-way's order (a literal segment before a parameter, segment by
 * segment), the services' rules: GET answers HEAD too; an integer path
 * parameter matches digits only, as sent, so a non-numeric `post_ID`
 * matches no route, as on the real platform; no parameter is empty; at
 * most one trailing slash, where asked. Parameter values are given back
 * still percent-encoded; the pipeline decodes them.
 */
export class ContractRouter {
  private readonly operations: Tree;
  private readonly paths: Tree;

  constructor(
    prefix: string,
    operations: readonly ContractOperation[],
    options: { ignoreTrailingSlash?: boolean } = {},
  ) {
    const config = {
      ignoreTrailingSlash: options.ignoreTrailingSlash ?? false,
      // No length limit of the router's own: a long value reaches the contract's validator (maxLength) and its 400.
      maxParamLength: Infinity,
      querystringParser: () => NO_QUERY,
    };
    this.operations = findMyWay(config);
    this.paths = findMyWay(config);
    const byPath = new Map<string, ContractOperation[]>();
    for (const op of operations) {
      // An operation with a server of its own is served under that server's path instead of the prefix.
      const full = `${op.serverPath ?? prefix}${op.path}`;
      byPath.set(full, [...(byPath.get(full) ?? []), op]);
    }
    for (const [full, ops] of byPath) {
      const pattern = toPattern(
        full,
        new Set(ops.flatMap((op) => op.pathParams.filter((p) => p.integer).map((p) => p.name))),
      );
      const byMethod = new Map(ops.map((op) => [op.method, op]));
      // GET answers HEAD too, as HTTP requires.
      const get = byMethod.get('GET');
      if (get && !byMethod.has('HEAD')) byMethod.set('HEAD', get);
      for (const [method, op] of byMethod) this.operations.on(method as Method, pattern, noHandler, op);
      // One `Allow` list per path, shared by every 405 of it: frozen, so no answer can change another's.
      this.paths.on('GET', pattern, noHandler, Object.freeze([...byMethod.keys()]));
    }
  }

  /** Resolves a request path (still percent-encoded, without its query) and method. */
  match(method: string, path: string): RouteMatch {
    if (path.charCodeAt(0) !== 47 /* / */) return NOT_FOUND;
    const encoded = path.includes('%');
    const sent = encoded ? path.replaceAll('%', PERCENT) : path;
    const found = this.operations.find(method as Method, sent);
    if (found) {
      const params = found.params as Record<string, string>;
      for (const name in params) {
        const value = params[name]!;
        if (!value.length) return NOT_FOUND;
        if (encoded) params[name] = value.replaceAll(PERCENT, '%');
      }
      return { kind: 'operation', operation: found.store as ContractOperation, rawParams: params };
    }
    const known = this.paths.find('GET', sent);
    if (!known) return NOT_FOUND;
    for (const name in known.params) if (!known.params[name]!.length) return NOT_FOUND;
    return { kind: 'method-not-allowed', allow: known.store as string[] };
  }
}

const NOT_FOUND: RouteMatch = { kind: 'not-found' };

/**
 * A contract path template as a find-my-way route: `{name}` a parameter,
 * an integer one digits only; a literal `:` doubled, as find-my-way escapes it.
 */
function toPattern(template: string, integers: ReadonlySet<string>): string {
  return template
    .split('/')
    .map((segment) =>
      segment
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (name === undefined) return part.replaceAll(':', '::');
          if (!PARAM_NAME.test(name))
            throw new Error(`Path parameter {${name}} of ${template}: only letters, digits and _ are routed`);
          // A parameter sharing its segment with text takes one or more characters, as a whole segment does.
          const whole = part === segment;
          if (integers.has(name)) return whole ? `:${name}(^\\d+$)` : `:${name}(\\d+)`;
          return whole ? `:${name}` : `:${name}([^/]+)`;
        })
        .join(''),
    )
    .join('/');
}
