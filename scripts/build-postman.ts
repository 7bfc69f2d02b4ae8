/**
 * `npm run build:postman`: one Postman collection per contract, made from
 * the contract by openapi-to-postmanv2 (a converter run in this process; it
 * calls nothing outside it), and one environment beside it with the base
 * URL and a token, into `<outDir>` (default `dist/postman/`):
 *
 *   <name>.postman_collection.json    every operation, grouped by tag, with the contract's examples
 *   <name>.postman_environment.json   the server variables at their defaults, and `token`
 *
 * As in the docs' samples, an optional query parameter or header is in each
 * request but off until the tester ticks it (publishing's `callback` would
 * turn the answer into JSONP). Every bearer credential is `{{token}}`.
 *
 *   tsx scripts/build-postman.ts [outDir]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import converter from 'openapi-to-postmanv2';
import { parseYaml } from './contracts.js';
import { CONTRACTS, projectRoot } from './tools.js';

interface Variable {
  key: string;
  value?: unknown;
  disabled?: boolean;
  description?: unknown;
}
interface Item {
  name?: string;
  item?: Item[];
  request?: {
    url?: { query?: (Variable & { description?: unknown })[] } | string;
    header?: Variable[];
    auth?: { type: string; bearer?: Variable[] };
  };
  response?: unknown[];
}
export interface Collection {
  info: { name: string };
  item: Item[];
  variable?: Variable[];
  auth?: unknown;
}
export interface Environment {
  name: string;
  values: { key: string; value: string; type: 'default' | 'secret'; enabled: boolean }[];
}

/** The converter's options: folders by tag, the contract's examples as values, no auth copied into example answers. */
const OPTIONS = {
  folderStrategy: 'Tags',
  requestParametersResolution: 'Example',
  exampleParametersResolution: 'Example',
  includeAuthInfoInExample: false,
} as const;

/** The collection of one contract, as the converter writes it. */
function convert(text: string): Promise<Collection> {
  return new Promise((resolvePromise, reject) => {
    converter.convert({ type: 'string', data: text }, OPTIONS, (error, result) => {
      if (error) return reject(error);
      const data = result?.result ? result.output?.[0]?.data : undefined;
      if (!data) return reject(new Error(`openapi-to-postmanv2: ${result?.reason ?? 'no collection'}`));
      resolvePromise(data as unknown as Collection);
    });
  });
}

/** Whether a converted parameter is optional: the converter writes "(Required)" at the start of a required one's description. */
const isRequired = (parameter: Variable) => {
  const description = parameter.description as string | { content?: string } | undefined;
  const text = typeof description === 'string' ? description : (description?.content ?? '');
  return text.startsWith('(Required)');
};

/**
 * Optional query parameters and headers off (`Accept` and `Content-Type`
 * stay), bearer credentials `{{token}}`, in every request of the tree; a
 * request whose operation may also be called without a credential (its
 * `security` lists `{}`, named by its summary in `optionalAuth`) sends none
 * until the tester picks one, since an empty token would be refused.
 */
function adjust(items: Item[], optionalAuth: Set<string>): void {
  for (const item of items) {
    if (item.item) adjust(item.item, optionalAuth);
    const request = item.request;
    if (!request) continue;
    if (request.url && typeof request.url === 'object') {
      for (const parameter of request.url.query ?? []) if (!isRequired(parameter)) parameter.disabled = true;
    }
    for (const header of request.header ?? []) {
      if (!['accept', 'content-type'].includes(header.key.toLowerCase()) && !isRequired(header)) header.disabled = true;
    }
    if (request.auth?.type === 'bearer')
      request.auth = optionalAuth.has(item.name ?? '')
        ? { type: 'noauth' }
        : { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] };
  }
}

/** The summaries of the operations a caller may call without a credential too. */
function optionallyAuthenticated(document: {
  security?: object[];
  paths?: Record<string, Record<string, { summary?: string; security?: object[] }>>;
}): Set<string> {
  const names = new Set<string>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const security = operation?.security ?? document.security ?? [];
      if (operation?.summary && security.some((requirement) => Object.keys(requirement).length === 0))
        names.add(operation.summary);
    }
  }
  return names;
}

/** Builds one collection and environment per contract into `outDir`; resolves with the files written. */
export async function buildPostman(outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const name of CONTRACTS) {
    const text = readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8');
    const collection = await convert(text);
    adjust(collection.item, optionallyAuthenticated(parseYaml(text) as Parameters<typeof optionallyAuthenticated>[0]));
    // The server URLs the requests use, as variables the environment sets (the collection keeps the defaults).
    const variables = (collection.variable ?? []).filter(
      (variable) => typeof variable.value === 'string' && !String(variable.value).startsWith('{{'),
    );
    const environment: Environment = {
      name: `${collection.info.name} (local)`,
      values: [
        ...variables.map((variable) => ({
          key: variable.key,
          value: String(variable.value),
          type: 'default' as const,
          enabled: true,
        })),
        { key: 'token', value: '', type: 'secret', enabled: true },
      ],
    };
    const files = [
      join(outDir, `${name}.postman_collection.json`),
      join(outDir, `${name}.postman_environment.json`),
    ] as const;
    writeFileSync(files[0], `${JSON.stringify(collection, null, 2)}\n`);
    writeFileSync(files[1], `${JSON.stringify(environment, null, 2)}\n`);
    written.push(...files);
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = await buildPostman(resolve(projectRoot, process.argv[2] ?? 'dist/postman'));
  console.log(`wrote ${files.length} Postman files:\n${files.map((file) => `  ${file}`).join('\n')}`);
}
