/**
 * Contract versions that cannot break clients by accident. The last released
 * contract of each service is kept in `openapi/released/<name>.yaml`; each
 * contract is compared with it by api-smart-diff, which classifies every
 * difference as breaking, non-breaking, deprecated or annotation. A breaking
 * difference is refused unless `info.version`'s major went up (semantic
 * versioning: the seed's rule, the major also in the path), and a contract
 * whose content changed at all must move `info.version` by as much as its
 * largest change asks: major for a breaking one, minor for an addition or a
 * deprecation, patch for anything else (a description, an example), so that
 * one version always names one contract.
 *
 * One kind of tightening is not breaking: a bound added to a released input
 * that the released server already enforced (a `maxLength` a `pattern`
 * implied, a `format: int32` within the `minimum` and `maximum` it had, a
 * length no request head can exceed). Each is acknowledged, with its reason,
 * in `openapi/released/tightenings.yaml` (the input, the keyword and its
 * value, for the release it is measured against), reviewed like any
 * contract change and shown in the changelog with its reason; any other
 * change to that input, or another value, is still breaking
 * (docs/decisions/acknowledged-tightenings.md).
 *
 *   npm run check:contracts              fails on an unapproved breaking change or an unmoved version
 *   npm run check:contracts -- --release copies today's contracts into openapi/released/
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiCompare } from 'api-smart-diff';
import { type OpenApiDocument, parseYaml, readContract } from './contracts.js';
import { CONTRACTS, projectRoot } from './tools.js';

export const RELEASED_DIR = join(projectRoot, 'openapi', 'released');
/** The acknowledged tightenings of each contract since its release. */
export const TIGHTENINGS_FILE = join(RELEASED_DIR, 'tightenings.yaml');

/** The keywords that bound an input: adding one refuses values, so api-smart-diff calls it breaking. */
const BOUND_KEYWORDS = new Set([
  'maxLength',
  'maxItems',
  'maxProperties',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'format',
]);

/**
 * A bound added to a released input that breaks no client: the released
 * server already refused every value it refuses. Names the input by a
 * parameter's name (on every operation that has it, and in
 * `components/parameters`) or by the JSON pointer of a schema in the
 * contract, the keyword added and its value.
 */
export interface AcknowledgedTightening {
  parameter?: string;
  schema?: string;
  keyword: string;
  value: unknown;
  /** Why the released server already refused what the bound refuses. */
  reason: string;
}

/** A contract's entry in `tightenings.yaml`: the release its tightenings are measured against, and them. */
interface TighteningsEntry {
  since: string;
  tightenings: AcknowledgedTightening[];
}

/**
 * The tightenings acknowledged for contract `name` against release
 * `released`: none when the file has none for that release (after
 * `release:contracts`, the release includes them and they no longer apply).
 */
export function acknowledgedTightenings(name: string, released: string): AcknowledgedTightening[] {
  if (!existsSync(TIGHTENINGS_FILE)) return [];
  const entries = (parseYaml(readFileSync(TIGHTENINGS_FILE, 'utf8')) ?? {}) as Record<
    string,
    TighteningsEntry | undefined
  >;
  const entry = entries[name];
  if (!entry || String(entry.since) !== released) return [];
  for (const tightening of entry.tightenings ?? []) {
    if (!BOUND_KEYWORDS.has(tightening.keyword))
      throw new Error(
        `${TIGHTENINGS_FILE}: ${name}: "${tightening.keyword}" is no bound (${[...BOUND_KEYWORDS].join(', ')})`,
      );
    if (!tightening.reason?.trim()) throw new Error(`${TIGHTENINGS_FILE}: ${name}: every tightening needs its reason`);
    if ((tightening.parameter === undefined) === (tightening.schema === undefined))
      throw new Error(`${TIGHTENINGS_FILE}: ${name}: name a parameter or a schema, not both`);
  }
  return entry.tightenings ?? [];
}

/** One difference between the released contract and today's. */
export interface ContractChange {
  kind: 'breaking' | 'non-breaking' | 'deprecated' | 'annotation' | 'unclassified';
  /** Where, as a JSON pointer into today's (or, for a removal, the released) contract. */
  where: string;
  description: string;
  /** What happened at `where`: api-smart-diff's `add`, `remove`, `replace`, `rename`. */
  action?: string;
  /** A breaking bound acknowledged as none (`tightenings.yaml`): why the released server already enforced it. */
  acknowledged?: string;
  /** The acknowledged bound, as written: `maxLength: 16384`. */
  bound?: string;
}

/** How far a version moved, or must move, under semantic versioning. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';
const BUMPS: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

export interface VersionCheck {
  name: string;
  released: string;
  current: string;
  changes: ContractChange[];
  breaking: ContractChange[];
  /** Breaking changes that a major version bump does not cover: the contract must not land. */
  refused: ContractChange[];
  /** The least move of `info.version` the changes ask for. */
  needed: Bump;
  /** How far `info.version` moved since the release (`none` also when it went down). */
  moved: Bump;
  /** Set when the version moved less than the changes ask: the contract changed under a version already released. */
  unversioned?: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const major = (version: string) => Number(/^(\d+)/.exec(version)?.[1] ?? Number.NaN);
const pointer = (path: readonly (string | number)[]) =>
  `/${path.map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/**
 * api-smart-diff calls a changed `operationId` an annotation; here it is
 * breaking, since the SDK's function names are the operationIds.
 */
function operationIdChanges(released: OpenApiDocument, current: OpenApiDocument): ContractChange[] {
  const changes: ContractChange[] = [];
  for (const [path, item] of Object.entries(released.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const before = (operation as { operationId?: string }).operationId;
      const after = (current.paths?.[path]?.[method] as { operationId?: string } | undefined)?.operationId;
      if (before && after && before !== after) {
        changes.push({
          kind: 'breaking',
          where: pointer(['paths', path, method, 'operationId']),
          description: `[Renamed] operation ${method.toUpperCase()} ${path}: operationId \`${before}\` is now \`${after}\` (the SDK's function name)`,
        });
      }
    }
  }
  return changes;
}

/** The value at `path` in `document`, following local `$ref`s on the way; undefined where there is none. */
function valueAt(document: unknown, path: readonly (string | number)[]): unknown {
  let node = document;
  for (const part of path) {
    for (let hops = 0; hops < 20 && node && typeof node === 'object' && '$ref' in node; hops++) {
      const ref = String((node as { $ref: unknown }).$ref);
      if (!ref.startsWith('#/')) return undefined;
      node = valueAt(
        document,
        ref
          .slice(2)
          .split('/')
          .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~')),
      );
    }
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[String(part)];
  }
  return node;
}

/**
 * A value added to an enum that the contract marks `x-extensible-enum: true`
 * (an error code, say: clients are told to expect new ones) is compatible,
 * as long as every released value is still there.
 */
function isExtensibleEnumAddition(
  released: OpenApiDocument,
  current: OpenApiDocument,
  path: readonly (string | number)[],
): boolean {
  const at = path.lastIndexOf('enum');
  if (at === -1 || at !== path.length - 2) return false;
  const schema = valueAt(current, path.slice(0, at)) as { enum?: unknown[]; 'x-extensible-enum'?: boolean } | undefined;
  const before = valueAt(released, path.slice(0, at + 1));
  if (!schema?.['x-extensible-enum'] || !Array.isArray(schema.enum) || !Array.isArray(before)) return false;
  return before.every((value) => schema.enum!.includes(value));
}

/**
 * A security scheme added to `components` breaks nobody by itself: no
 * released operation can name it, and an operation or the document's
 * `security` that starts requiring it is a difference of its own
 * (api-smart-diff calls the addition breaking).
 */
const isAddedSecurityScheme = (diff: { action: string; path: readonly (string | number)[] }) =>
  diff.action === 'add' &&
  diff.path.length === 3 &&
  diff.path[0] === 'components' &&
  diff.path[1] === 'securitySchemes';

/**
 * A response header's `required` is a promise to the client: made true, the
 * answer promises more and breaks no client; made false or removed, a client
 * that read the header may find none, which breaks it. api-smart-diff judges
 * it as it would a request's required input, the other way round. Headers
 * under `components/headers` are answers' headers (OpenAPI has request
 * headers as parameters). The kind such a difference is, if it is one.
 */
function responseHeaderPromise(diff: {
  action: string;
  path: readonly (string | number)[];
  after?: unknown;
}): ContractChange['kind'] | undefined {
  const { path } = diff;
  if (path.at(-1) !== 'required' || path.at(-3) !== 'headers') return undefined;
  if (!path.includes('responses') && !(path[0] === 'components' && path[1] === 'headers' && path.length === 4))
    return undefined;
  return diff.action !== 'remove' && diff.after === true ? 'non-breaking' : 'breaking';
}

/**
 * The acknowledged tightening that a breaking difference is, if any: a bound
 * keyword added (not changed, not removed), with the acknowledged value, on
 * the acknowledged parameter or schema.
 */
function acknowledgedAs(
  current: OpenApiDocument,
  diff: { action: string; path: readonly (string | number)[]; after?: unknown },
  tightenings: readonly AcknowledgedTightening[],
): AcknowledgedTightening | undefined {
  const keyword = String(diff.path.at(-1));
  if (diff.action !== 'add' || !BOUND_KEYWORDS.has(keyword)) return undefined;
  const where = pointer(diff.path);
  // The added value as api-smart-diff saw it (its path may pass through the `allOf` it wraps a `$ref` with sibling keywords in).
  const value = diff.after;
  const at = diff.path.lastIndexOf('parameters');
  const parameter = at === -1 ? undefined : valueAt(current, [...diff.path.slice(0, at + 2), 'name']);
  return tightenings.find(
    (tightening) =>
      tightening.keyword === keyword &&
      JSON.stringify(tightening.value) === JSON.stringify(value) &&
      (tightening.parameter !== undefined
        ? tightening.parameter === parameter
        : where === `${tightening.schema}/${keyword}`),
  );
}

/** Every difference between two versions of a contract, with its kind (an acknowledged tightening is compatible). */
export function compareContracts(
  released: OpenApiDocument,
  current: OpenApiDocument,
  tightenings: readonly AcknowledgedTightening[] = [],
): ContractChange[] {
  const { diffs } = apiCompare(released, current);
  const renamed = operationIdChanges(released, current);
  const renamedAt = new Set(renamed.map((change) => change.where));
  return [
    ...diffs
      .map((diff) => {
        const extensible = diff.type === 'breaking' && isExtensibleEnumAddition(released, current, diff.path);
        const newScheme = diff.type === 'breaking' && isAddedSecurityScheme(diff);
        const promise = responseHeaderPromise(diff);
        const acknowledged = diff.type === 'breaking' ? acknowledgedAs(current, diff, tightenings) : undefined;
        return {
          kind: (promise ??
            (extensible || newScheme || acknowledged ? 'non-breaking' : diff.type)) as ContractChange['kind'],
          where: pointer(diff.path),
          description: extensible
            ? `[Added] a value of the extensible enum at ${pointer(diff.path.slice(0, -1))}`
            : diff.description || `[${diff.action}] ${pointer(diff.path)}`,
          action: String(diff.action),
          ...(acknowledged
            ? {
                acknowledged: acknowledged.reason,
                bound: `${acknowledged.keyword}: ${typeof acknowledged.value === 'string' ? acknowledged.value : JSON.stringify(acknowledged.value)}`,
              }
            : {}),
        };
      })
      .filter((change) => !renamedAt.has(change.where)),
    ...renamed,
  ];
}

/**
 * Today's contract `name` against its release, or against `current` when
 * given (tests pass mutated copies), with the tightenings acknowledged for
 * that release (`tightenings.yaml`, unless given).
 */
export function checkContract(
  name: string,
  current: OpenApiDocument = readContract(name),
  tightenings?: readonly AcknowledgedTightening[],
): VersionCheck {
  const released = readContract(join('released', name));
  const releasedVersion = String((released.info as { version: string }).version);
  const changes = compareContracts(released, current, tightenings ?? acknowledgedTightenings(name, releasedVersion));
  return judged(name, releasedVersion, String((current.info as { version: string }).version), changes);
}

/**
 * The same comparison judged as if today's contract carried `version`, its
 * content unchanged: what `checkContract` of that copy gives, without
 * comparing the two contracts again (a comparison is most of a check's
 * cost). The change of `info.version` itself is left out of `changes`: it
 * is not content, and no bump counts it.
 */
export function judgedUnder(check: VersionCheck, version: string): VersionCheck {
  const content = check.changes.filter((change) => change.where !== '/info/version');
  return judged(check.name, check.released, version, content);
}

function judged(
  name: string,
  releasedVersion: string,
  currentVersion: string,
  changes: ContractChange[],
): VersionCheck {
  const breaking = changes.filter((change) => change.kind === 'breaking');
  const majorBumped = major(currentVersion) > major(releasedVersion);
  const needed = neededBump(changes);
  const moved = versionMove(releasedVersion, currentVersion);
  const unversioned =
    BUMPS.indexOf(moved) < BUMPS.indexOf(needed)
      ? `its content changed since release ${releasedVersion} (${changes.filter((change) => change.where !== '/info/version').length} change(s)) but info.version ${currentVersion === releasedVersion ? 'did not move' : `moved only to ${currentVersion}`}: raise the ${needed} version (${nextVersion(releasedVersion, needed)})`
      : undefined;
  return {
    name,
    released: releasedVersion,
    current: currentVersion,
    changes,
    breaking,
    refused: majorBumped ? [] : breaking,
    needed,
    moved,
    ...(unversioned ? { unversioned } : {}),
  };
}

/** The least version move the changes ask for: major for breaking, minor for additions and deprecations, patch for any other change (the version's own excluded). */
export function neededBump(changes: readonly ContractChange[]): Bump {
  const content = changes.filter((change) => change.where !== '/info/version');
  if (content.some((change) => change.kind === 'breaking')) return 'major';
  if (content.some((change) => change.kind === 'non-breaking' || change.kind === 'deprecated')) return 'minor';
  return content.length ? 'patch' : 'none';
}

const parts = (version: string) => (/^(\d+)\.(\d+)\.(\d+)/.exec(version) ?? []).slice(1, 4).map(Number);

/** How far `to` moved from `from`: the highest part that went up, with the higher ones equal; `none` when it did not go up. */
export function versionMove(from: string, to: string): Bump {
  const [a, b] = [parts(from), parts(to)];
  if (a.length < 3 || b.length < 3 || a.some(Number.isNaN) || b.some(Number.isNaN))
    return from === to ? 'none' : 'major';
  for (const [index, bump] of (['major', 'minor', 'patch'] as const).entries()) {
    if (b[index]! > a[index]!) return bump;
    if (b[index]! < a[index]!) return 'none';
  }
  return 'none';
}

/** The version after `version` moved by `bump`. */
function nextVersion(version: string, bump: Bump): string {
  const [x = 0, y = 0, z = 0] = parts(version);
  return bump === 'major'
    ? `${x + 1}.0.0`
    : bump === 'minor'
      ? `${x}.${y + 1}.0`
      : bump === 'patch'
        ? `${x}.${y}.${z + 1}`
        : version;
}

/** A part of a contract a reader knows by name: an operation (`GET /avatar/{hash}`), or the shared definitions. */
interface Place {
  key: string;
  title: string;
  /** The pointer's parts below the operation (or below `components`). */
  rest: string[];
}

const unpoint = (where: string) =>
  where
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));

function placeOf(
  check: Pick<VersionCheck, 'name'>,
  released: OpenApiDocument,
  current: OpenApiDocument,
  where: string,
): Place {
  const parts = unpoint(where);
  if (parts[0] === 'paths' && parts[1] && parts[2] && METHODS.has(parts[2])) {
    const operation = (current.paths?.[parts[1]]?.[parts[2]] ?? released.paths?.[parts[1]]?.[parts[2]]) as
      | { operationId?: string }
      | undefined;
    const title = `${parts[2].toUpperCase()} ${parts[1]}${operation?.operationId ? ` (\`${operation.operationId}\`)` : ''}`;
    return { key: `${parts[1]} ${parts[2]}`, title, rest: parts.slice(3) };
  }
  if (parts[0] === 'paths' && parts[1])
    return { key: `${parts[1]}`, title: `Every operation of ${parts[1]}`, rest: parts.slice(2) };
  if (parts[0] === 'components')
    return {
      key: '~components',
      title: 'Shared definitions (used by the operations that refer to them)',
      rest: parts.slice(1),
    };
  return { key: '~document', title: `The ${check.name} contract as a whole`, rest: parts };
}

const DOC_WORDS = new Set(['description', 'summary', 'example', 'examples', 'title', 'externalDocs']);
const COMPONENT_KINDS: Record<string, string> = {
  schemas: 'schema',
  responses: 'answer',
  parameters: 'parameter',
  headers: 'header',
  examples: 'example',
  requestBodies: 'request body',
  securitySchemes: 'security scheme',
};

/** What a pointer below an operation (or below `components`) names, in words: "header `X-RateLimit-Limit` of the 200 answer". */
function subject(document: OpenApiDocument, parts: string[], place: Place): string {
  const [head, second, third, fourth] = place.rest;
  if (place.key === '~components' && head && second) {
    const thing = `${COMPONENT_KINDS[head] ?? head.replace(/s$/, '')} \`${second}\``;
    return head === 'schemas'
      ? fieldOf(place.rest.slice(2), thing)
      : place.rest.length > 2
        ? `${thing} (at \`${place.rest.slice(2).join('.')}\`)`
        : thing;
  }
  if (head === undefined) return 'the operation';
  if (head === 'responses' && second) {
    const answer = `the ${second} answer`;
    if (third === undefined) return answer;
    if (third === 'headers') return fourth ? `header \`${fourth}\` of ${answer}` : `the headers of ${answer}`;
    if (third === 'content') return fieldOf(place.rest.slice(5), `the ${fourth ? `${fourth} ` : ''}body of ${answer}`);
    return `${answer} (\`${place.rest.slice(2).join('.')}\`)`;
  }
  if (head === 'parameters' && second !== undefined) {
    const at = [...parts.slice(0, parts.length - place.rest.length), 'parameters', second];
    const [name, where] = [valueAt(document, [...at, 'name']), valueAt(document, [...at, 'in'])];
    const named =
      typeof name === 'string'
        ? `${typeof where === 'string' ? `${where} ` : ''}parameter \`${name}\``
        : `parameter ${second}`;
    return place.rest.length > 2 ? `${named} (\`${place.rest.slice(2).join('.')}\`)` : named;
  }
  if (head === 'requestBody')
    return `the request body${place.rest.length > 1 ? ` (\`${place.rest.slice(1).join('.')}\`)` : ''}`;
  if (head === 'security') return 'the credentials it takes';
  return `\`${place.rest.join('.')}\``;
}

/** A place inside a schema as a reader names it: "field `body.ID` of …", without the schema keywords on the way. */
function fieldOf(inside: string[], of: string): string {
  const field = inside.filter(
    (part) => !['properties', 'items', 'anyOf', 'allOf', 'oneOf', 'schema'].includes(part) && !/^\d+$/.test(part),
  );
  return field.length ? `field \`${field.join('.')}\` of ${of}` : of;
}

/** One change in plain words: what happened to what, and whether it breaks clients. */
function plainChange(
  released: OpenApiDocument,
  current: OpenApiDocument,
  change: ContractChange,
  place: Place,
): string {
  const parts = unpoint(change.where);
  if (parts.includes('operationId') && change.kind === 'breaking')
    return `Renamed (breaking): ${change.description.replace(/^\[Renamed\] /, '')}`;
  if (change.acknowledged) {
    const input = subject(current, parts, place).replace(/ \(`[^`]*`\)$/, '');
    return `Bounded ${input} by \`${change.bound}\` (compatible: the released server already refused every value it refuses; ${change.acknowledged.replace(/\.$/, '')})`;
  }
  const action = change.action ?? /^\[(\w+)/.exec(change.description)?.[1]?.toLowerCase() ?? 'replace';
  const verb =
    action === 'add' || action === 'added'
      ? 'Added'
      : action === 'remove' || action === 'removed'
        ? 'Removed'
        : 'Changed';
  const last = parts[parts.length - 1] ?? '';
  const documentation =
    DOC_WORDS.has(last) || last.startsWith('x-') || parts.includes('examples') || parts.includes('example');
  // An added header list or enum value names what it added.
  const document = verb === 'Removed' ? released : current;
  let what = subject(document, parts, place);
  if (parts.at(-2) === 'enum')
    what = `a value of ${subject(document, parts.slice(0, -2), { ...place, rest: place.rest.slice(0, -2) })}: \`${String(valueAt(document, parts))}\``;
  else if (documentation)
    what = `the ${last === 'examples' || last === 'example' || parts.includes('examples') ? 'example' : last.startsWith('x-') ? `\`${last}\`` : last} of ${subject(document, parts, { ...place, rest: place.rest.slice(0, place.rest.indexOf(last === 'example' || parts.includes('examples') ? (parts.includes('examples') ? 'examples' : 'example') : last)) })}`;
  else if (last === 'headers' && verb === 'Added') {
    const names = Object.keys((valueAt(current, parts) as Record<string, unknown> | undefined) ?? {});
    if (names.length)
      what = `header${names.length > 1 ? 's' : ''} ${names.map((name) => `\`${name}\``).join(', ')} to ${subject(document, parts, { ...place, rest: place.rest.slice(0, -1) })}`;
  }
  // "Added header `X` to the 200 answer", "Removed … from …".
  if (!documentation && place.rest[2] === 'headers' && place.rest.length === 4 && verb !== 'Changed')
    what = what.replace(' of the ', verb === 'Added' ? ' to the ' : ' from the ');
  const kind =
    change.kind === 'breaking'
      ? 'breaking'
      : change.kind === 'deprecated'
        ? 'deprecated'
        : change.kind === 'non-breaking'
          ? 'compatible'
          : documentation || change.kind === 'annotation'
            ? 'documentation only'
            : 'not classified: check by hand';
  return `${verb} ${what} (${kind})`;
}

/** "the 400, 403 and 405 answers". */
const answersList = (statuses: string[]) =>
  `the ${statuses.length > 1 ? `${statuses.slice(0, -1).join(', ')} and ${statuses.at(-1)}` : statuses[0]} answer${statuses.length > 1 ? 's' : ''}`;

/** The lines in order (breaking first), each once; lines that differ only in the answer's status made one ("… of the 400 and 403 answers …"). */
function mergedByAnswer(lines: [number, string][]): string[] {
  const merged = new Map<string, { order: number; statuses: string[]; line: string }>();
  for (const [order, line] of lines) {
    const status = / the (\d{3}) answer\b/.exec(line);
    const key = status ? line.replace(status[0], ' {answer}') : line;
    const entry = merged.get(key) ?? { order, statuses: [], line };
    if (status && !entry.statuses.includes(status[1]!)) entry.statuses.push(status[1]!);
    entry.order = Math.min(entry.order, order);
    merged.set(key, entry);
  }
  return [...merged.entries()]
    .sort(([, a], [, b]) => a.order - b.order)
    .map(([key, { statuses, line }]) =>
      statuses.length > 1 ? key.replace('{answer}', answersList(statuses.sort())) : line,
    );
}

/**
 * The changes since the release as Markdown, what the docs serve as the
 * contract's changelog: one section per operation (then the shared
 * definitions), each change in plain words with whether it breaks clients,
 * breaking ones first. Annotations of the document itself (its
 * description, its version) are left out.
 */
export function changelogMarkdown(
  check: VersionCheck,
  released: OpenApiDocument = readContract(join('released', check.name)),
  current: OpenApiDocument = readContract(check.name),
): string {
  const shown = check.changes.filter((change) => !(change.kind === 'annotation' && change.where.startsWith('/info/')));
  const versions =
    check.current === check.released
      ? `Version ${check.current}, as released${shown.length ? ', though its content changed since: it needs a new version before it is released again' : ''}.`
      : `Version ${check.current} (released: ${check.released}): a ${check.moved} release${check.breaking.length ? ', with breaking changes' : ''}.`;
  if (!shown.length)
    return `## Changes since ${check.released}\n\n${versions}\n\nNone: this is release ${check.released}${check.current === check.released ? '' : ` (now ${check.current})`}.\n`;
  const order: Record<ContractChange['kind'], number> = {
    breaking: 0,
    deprecated: 1,
    'non-breaking': 2,
    unclassified: 3,
    annotation: 4,
  };
  const places = new Map<string, { title: string; lines: [number, string][] }>();
  for (const change of shown) {
    const place = placeOf(check, released, current, change.where);
    const entry = places.get(place.key) ?? { title: place.title, lines: [] };
    entry.lines.push([order[change.kind], plainChange(released, current, change, place)]);
    places.set(place.key, entry);
  }
  const sections = [...places.entries()]
    .sort(([a], [b]) => (a.startsWith('~') === b.startsWith('~') ? a.localeCompare(b) : a.startsWith('~') ? 1 : -1))
    .map(
      ([, { title, lines }]) =>
        `### ${title}\n\n${mergedByAnswer(lines)
          .map((line) => `- ${line}`)
          .join('\n')}\n`,
    );
  return `## Changes since ${check.released}\n\n${versions}\n\n${sections.join('\n')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--release')) {
    mkdirSync(RELEASED_DIR, { recursive: true });
    for (const name of CONTRACTS)
      copyFileSync(join(projectRoot, 'openapi', `${name}.yaml`), join(RELEASED_DIR, `${name}.yaml`));
    console.log(
      `released: ${CONTRACTS.map((name) => `${name} ${String((readContract(name).info as { version: string }).version)}`).join(', ')}`,
    );
    process.exit(0);
  }
  let refused = 0;
  for (const name of CONTRACTS) {
    if (!existsSync(join(RELEASED_DIR, `${name}.yaml`))) {
      console.log(`${name}: no released contract in openapi/released/ (run with --release once it is released)`);
      refused++;
      continue;
    }
    const check = checkContract(name);
    const acknowledged = check.changes.filter((change) => change.acknowledged).length;
    const summary = `${name}: ${check.released} -> ${check.current}, ${check.changes.length} change(s), ${check.breaking.length} breaking${acknowledged ? `, ${acknowledged} acknowledged tightening(s)` : ''}`;
    if (check.unversioned) {
      refused++;
      console.log(`${summary}: ${check.unversioned}`);
    }
    if (!check.refused.length) {
      if (check.unversioned) continue;
      console.log(`${summary}${check.breaking.length ? ' (major version raised)' : ''}`);
      continue;
    }
    refused += check.refused.length;
    console.log(`${summary}: refused without a new major version`);
    for (const change of check.refused) console.log(`  ${change.description}  (${change.where})`);
  }
  process.exit(refused ? 1 : 0);
}
