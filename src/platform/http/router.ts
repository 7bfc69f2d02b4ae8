import type { ContractOperation } from './contract.js';

interface CompiledRoute {
  pattern: RegExp;
  byMethod: Map<string, ContractOperation>;
}

/** What a path and method resolve to. */
export type RouteMatch =
  | { kind: 'operation'; operation: ContractOperation; rawParams: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches request paths to contract operations with regular expressions
 * compiled once at start-up (openapi-backend's own router rebuilds them on
 * every request). An integer path parameter matches digits only, so a
 * non-numeric `post_ID` matches no route, as on the real platform.
 */
export class ContractRouter {
  private readonly routes: CompiledRoute[] = [];

  constructor(
    prefix: string,
    operations: readonly ContractOperation[],
    options: { ignoreTrailingSlash?: boolean } = {},
  ) {
    const byPath = new Map<string, ContractOperation[]>();
    for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
    for (const [path, ops] of byPath) {
      const integerParams = new Set(ops.flatMap((op) => op.pathParams.filter((p) => p.integer).map((p) => p.name)));
      const source = path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (!name) return escapeRegExp(part);
          return integerParams.has(name) ? `(?<${name}>\\d+)` : `(?<${name}>[^/]+)`;
        })
        .join('');
      const slash = options.ignoreTrailingSlash ? '/?' : '';
      const byMethod = new Map(ops.map((op) => [op.method, op]));
      // GET answers HEAD too, as HTTP requires.
      const get = byMethod.get('GET');
      if (get && !byMethod.has('HEAD')) byMethod.set('HEAD', get);
      // An operation with a server of its own is served under that server's path instead of the prefix.
      const base = ops[0]!.serverPath ?? prefix;
      this.routes.push({ pattern: new RegExp(`^${escapeRegExp(base)}${source}${slash}$`), byMethod });
    }
    // Literal paths win over templated ones (`/posts/new` before `/posts/{id}`).
    this.routes.sort((a, b) => templateCount(a.pattern) - templateCount(b.pattern));
  }

  /** Resolves a request path (still percent-encoded) and method. */
  match(method: string, path: string): RouteMatch {
    let allow: string[] | undefined;
    for (const route of this.routes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      const operation = route.byMethod.get(method);
      if (operation) return { kind: 'operation', operation, rawParams: { ...found.groups } };
      allow ??= [...route.byMethod.keys()];
    }
    return allow ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
  }
}

const templateCount = (pattern: RegExp) => (pattern.source.match(/\(\?</g) ?? []).length;
