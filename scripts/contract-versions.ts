/**
 * Contract versions that cannot break clients by accident. The last released
 * contract of each service is kept in `openapi/released/<name>.yaml`; each
 * contract is compared with it by api-smart-diff, which classifies every
 * difference as breaking, non-breaking, deprecated or annotation. A breaking
 * difference is refused unless `info.version`'s major went up (semantic
 * versioning: the seed's rule, the major also in the path).
 *
 *   npm run check:contracts              fails on an unapproved breaking change
 *   npm run check:contracts -- --release copies today's contracts into openapi/released/
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { apiCompare } from 'api-smart-diff';
import { type OpenApiDocument, readContract } from './contracts.js';
import { CONTRACTS, projectRoot } from './tools.js';

export const RELEASED_DIR = join(projectRoot, 'openapi', 'released');

/** One difference between the released contract and today's. */
export interface ContractChange {
  kind: 'breaking' | 'non-breaking' | 'deprecated' | 'annotation' | 'unclassified';
  /** Where, as a JSON pointer into today's (or, for a removal, the released) contract. */
  where: string;
  description: string;
}

export interface VersionCheck {
  name: string;
  released: string;
  current: string;
  changes: ContractChange[];
  breaking: ContractChange[];
  /** Breaking changes that a major version bump does not cover: the contract must not land. */
  refused: ContractChange[];
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const major = (version: string) => Number(/^(\d+)/.exec(version)?.[1] ?? Number.NaN);
const pointer = (path: readonly (string | number)[]) => `/${path.map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

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
      node = valueAt(document, ref.slice(2).split('/').map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~')));
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
function isExtensibleEnumAddition(released: OpenApiDocument, current: OpenApiDocument, path: readonly (string | number)[]): boolean {
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
  diff.action === 'add' && diff.path.length === 3 && diff.path[0] === 'components' && diff.path[1] === 'securitySchemes';

/** Every difference between two versions of a contract, with its kind. */
export function compareContracts(released: OpenApiDocument, current: OpenApiDocument): ContractChange[] {
  const { diffs } = apiCompare(released, current);
  const renamed = operationIdChanges(released, current);
  const renamedAt = new Set(renamed.map((change) => change.where));
  return [
    ...diffs
      .map((diff) => {
        const extensible = diff.type === 'breaking' && isExtensibleEnumAddition(released, current, diff.path);
        const newScheme = diff.type === 'breaking' && isAddedSecurityScheme(diff);
        return {
          kind: (extensible || newScheme ? 'non-breaking' : diff.type) as ContractChange['kind'],
          where: pointer(diff.path),
          description: extensible
            ? `[Added] a value of the extensible enum at ${pointer(diff.path.slice(0, -1))}`
            : diff.description || `[${diff.action}] ${pointer(diff.path)}`,
        };
      })
      .filter((change) => !renamedAt.has(change.where)),
    ...renamed,
  ];
}

/** Today's contract `name` against its release, or against `current` when given (tests pass mutated copies). */
export function checkContract(name: string, current: OpenApiDocument = readContract(name)): VersionCheck {
  const released = readContract(join('released', name));
  const changes = compareContracts(released, current);
  const breaking = changes.filter((change) => change.kind === 'breaking');
  const releasedVersion = String((released.info as { version: string }).version);
  const currentVersion = String((current.info as { version: string }).version);
  const majorBumped = major(currentVersion) > major(releasedVersion);
  return { name, released: releasedVersion, current: currentVersion, changes, breaking, refused: majorBumped ? [] : breaking };
}

/** The changes since the release as Markdown: what the docs serve as the contract's changelog. */
export function changelogMarkdown(check: VersionCheck): string {
  const heading = `## Changes since ${check.released}`;
  const shown = check.changes.filter((change) => change.kind !== 'annotation');
  if (!shown.length) return `${heading}\n\nNone: this is release ${check.released}${check.current === check.released ? '' : ` (now ${check.current})`}.\n`;
  const groups: [ContractChange['kind'], string][] = [
    ['breaking', 'Breaking'],
    ['deprecated', 'Deprecated'],
    ['non-breaking', 'Compatible'],
    ['unclassified', 'Other'],
  ];
  const sections = groups
    .map(([kind, title]) => {
      const lines = [...new Set(shown.filter((change) => change.kind === kind).map((change) => `- ${change.description}`))];
      return lines.length ? `### ${title}\n\n${lines.join('\n')}\n` : '';
    })
    .filter(Boolean);
  return `${heading} (now ${check.current})\n\n${sections.join('\n')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--release')) {
    mkdirSync(RELEASED_DIR, { recursive: true });
    for (const name of CONTRACTS) copyFileSync(join(projectRoot, 'openapi', `${name}.yaml`), join(RELEASED_DIR, `${name}.yaml`));
    console.log(`released: ${CONTRACTS.map((name) => `${name} ${String((readContract(name).info as { version: string }).version)}`).join(', ')}`);
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
    const summary = `${name}: ${check.released} -> ${check.current}, ${check.changes.length} change(s), ${check.breaking.length} breaking`;
    if (!check.refused.length) {
      console.log(`${summary}${check.breaking.length ? ' (major version raised)' : ''}`);
      continue;
    }
    refused += check.refused.length;
    console.log(`${summary}: refused without a new major version`);
    for (const change of check.refused) console.log(`  ${change.description}  (${change.where})`);
  }
  process.exit(refused ? 1 : 0);
}
