import type { ContractOperation } from './contract/types.js';

/** What a path and method resolve to. */
export type RouteMatch =
  | { kind: 'operation'; operation: ContractOperation; rawParams: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

/** One path template of the contract (under its base) and its operations by method. */
interface Route {
  byMethod: Map<string, ContractOperation>;
  /** How many parameters its template has: literal paths win over templated ones. */
  templates: number;
  /** Declaration order, the tie-break. */
  order: number;
}

/** A path segment with a parameter in it: `{post_ID}`, or text around one (`slug:{name}`). */
interface PatternEdge {
  /** Whole segment, anchored; named groups are the parameters. */
  pattern: RegExp;
  /** The parameter's name when the segment is that parameter alone (matched without the pattern). */
  whole?: string;
  /** With `whole`: the parameter is an integer (digits only). */
  digits: boolean;
  node: TrieNode;
}

/** A node of the segment tree: where the path has got to after some segments. */
interface TrieNode {
  literal: Map<string, TrieNode>;
  patterns: PatternEdge[];
  /** The route whose template ends here. */
  route?: Route;
}

const newNode = (): TrieNode => ({ literal: new Map(), patterns: [] });
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches request paths to contract operations through a tree of path
 * segments built once at start-up: a request walks one literal segment at a
 * time (a map lookup), trying parameter segments only where the contract
 * has one, so the cost does not grow with the number of operations. An
 * integer path parameter matches digits only, so a non-numeric `post_ID`
 * matches no route, as on the real platform. Segments are matched as sent
 * (still percent-encoded); the pipeline decodes parameter values.
 */
export class ContractRouter {
  private readonly root = newNode();
  private readonly ignoreTrailingSlash: boolean;

  constructor(
    prefix: string,
    operations: readonly ContractOperation[],
    options: { ignoreTrailingSlash?: boolean } = {},
  ) {
    this.ignoreTrailingSlash = options.ignoreTrailingSlash ?? false;
    const byPath = new Map<string, ContractOperation[]>();
    for (const op of operations) {
      // An operation with a server of its own is served under that server's path instead of the prefix.
      const full = `${op.serverPath ?? prefix}${op.path}`;
      byPath.set(full, [...(byPath.get(full) ?? []), op]);
    }
    let order = 0;
    for (const [full, ops] of byPath) {
      const integerParams = new Set(ops.flatMap((op) => op.pathParams.filter((p) => p.integer).map((p) => p.name)));
      const byMethod = new Map(ops.map((op) => [op.method, op]));
      // GET answers HEAD too, as HTTP requires.
      const get = byMethod.get('GET');
      if (get && !byMethod.has('HEAD')) byMethod.set('HEAD', get);
      let node = this.root;
      let templates = 0;
      for (const segment of full.split('/').slice(1)) {
        if (!segment.includes('{')) {
          let next = node.literal.get(segment);
          if (!next) node.literal.set(segment, (next = newNode()));
          node = next;
          continue;
        }
        const source = segment
          .split(/(\{[^}]+\})/)
          .map((part) => {
            const name = /^\{([^}]+)\}$/.exec(part)?.[1];
            if (!name) return escapeRegExp(part);
            templates++;
            return integerParams.has(name) ? `(?<${name}>\\d+)` : `(?<${name}>[^/]+)`;
          })
          .join('');
        let edge = node.patterns.find((candidate) => candidate.pattern.source === `^${source}$`);
        if (!edge) {
          const whole = /^\{([^}]+)\}$/.exec(segment)?.[1];
          const digits = whole !== undefined && integerParams.has(whole);
          node.patterns.push((edge = { pattern: new RegExp(`^${source}$`), whole, digits, node: newNode() }));
        }
        node = edge.node;
      }
      node.route = { byMethod, templates, order: order++ };
    }
  }

  /** Resolves a request path (still percent-encoded) and method. */
  match(method: string, path: string): RouteMatch {
    if (path.charCodeAt(0) !== 47 /* / */) return NOT_FOUND;
    let trimmed = path;
    if (this.ignoreTrailingSlash && path.length > 1 && path.endsWith('/')) trimmed = path.slice(0, -1);
    const segments = trimmed.split('/');
    const found: Found[] = [];
    collect(this.root, segments, 1, [], found);
    if (!found.length) return NOT_FOUND;
    if (found.length > 1) found.sort((a, b) => a.route.templates - b.route.templates || a.route.order - b.route.order);
    for (const { route, params } of found) {
      const operation = route.byMethod.get(method);
      if (operation) return { kind: 'operation', operation, rawParams: params };
    }
    return { kind: 'method-not-allowed', allow: [...found[0]!.route.byMethod.keys()] };
  }
}

const NOT_FOUND: RouteMatch = { kind: 'not-found' };

interface Found {
  route: Route;
  params: Record<string, string>;
}

/** A segment of digits only (an integer parameter), not empty. */
function isDigits(segment: string): boolean {
  if (!segment.length) return false;
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/**
 * Every route whose template matches `segments` from `index` on, below
 * `node`, with its parameters. The values found on the way are a stack of
 * names and values (`taken`), made into an object only for a route found.
 */
function collect(node: TrieNode, segments: readonly string[], index: number, taken: string[], found: Found[]): void {
  if (index === segments.length) {
    if (!node.route) return;
    const params: Record<string, string> = {};
    for (let i = 0; i < taken.length; i += 2) params[taken[i]!] = taken[i + 1]!;
    found.push({ route: node.route, params });
    return;
  }
  const segment = segments[index]!;
  const literal = node.literal.get(segment);
  if (literal) collect(literal, segments, index + 1, taken, found);
  for (const edge of node.patterns) {
    if (edge.whole !== undefined) {
      if (edge.digits ? !isDigits(segment) : !segment.length) continue;
      taken.push(edge.whole, segment);
      collect(edge.node, segments, index + 1, taken, found);
      taken.length -= 2;
      continue;
    }
    const groups = edge.pattern.exec(segment)?.groups;
    if (!groups) continue;
    const depth = taken.length;
    for (const name in groups) taken.push(name, groups[name]!);
    collect(edge.node, segments, index + 1, taken, found);
    taken.length = depth;
  }
}
