/**
 * `npm run generate`: rebuilds `generated/<name>/` from every contract
 * `openapi/<name>.yaml`. `@hey-api/openapi-ts` writes the types and the SDK;
 * then this script writes `contract.gen.ts` beside them: the contract's
 * operations (operationId to its generated `XxxData` and `XxxResponses`
 * types) and the names of its security schemes, which a service module's
 * handler map, policy table and security resolvers are typed from.
 * `GENERATE_OUTPUT_ROOT` writes elsewhere (`npm run check:generated`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CONTRACTS, projectRoot, quietToolEnv, run } from './tools.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Document {
  paths?: Record<string, Record<string, { operationId?: string } | undefined>>;
  components?: { securitySchemes?: Record<string, unknown> };
}

/** The `contract.gen.ts` of one contract; `types` is the `types.gen.ts` openapi-ts wrote for it. */
function contractTypes(name: string, document: Document, types: string): string {
  const operationIds = Object.values(document.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.flatMap((method) => item[method]?.operationId ?? []),
  );
  // openapi-ts names an operation's types after its operationId in PascalCase; say so plainly if it ever does not.
  const typeName = (operationId: string, suffix: 'Data' | 'Responses') => {
    const type = `${operationId[0]!.toUpperCase()}${operationId.slice(1)}${suffix}`;
    if (!types.includes(`export type ${type} = `)) throw new Error(`${name}: openapi-ts wrote no type ${type} for operation ${operationId}`);
    return type;
  };
  const schemes = Object.keys(document.components?.securitySchemes ?? {});
  return [
    `// This file is generated from openapi/${name}.yaml by scripts/generate.ts (npm run generate); do not edit.`,
    '',
    "import type * as T from './types.gen.js';",
    '',
    '/** The operations of the contract by operationId, with their generated request and response types. */',
    'export interface Operations {',
    ...operationIds.map((id) => `  ${id}: { data: T.${typeName(id, 'Data')}; responses: T.${typeName(id, 'Responses')} };`),
    '}',
    '',
    '/** The names of the contract\'s security schemes (`components.securitySchemes`). */',
    `export type SecuritySchemeName = ${schemes.map((scheme) => `'${scheme}'`).join(' | ') || 'never'};`,
    '',
  ].join('\n');
}

const outputRoot = process.env.GENERATE_OUTPUT_ROOT ?? join(projectRoot, 'generated');
const code = await run('openapi-ts', [], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...quietToolEnv, GENERATE_OUTPUT_ROOT: outputRoot } });
if (code !== 0) process.exit(code);
for (const name of CONTRACTS) {
  const document = parseYaml(readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8')) as Document;
  const folder = join(outputRoot, name);
  writeFileSync(join(folder, 'contract.gen.ts'), contractTypes(name, document, readFileSync(join(folder, 'types.gen.ts'), 'utf8')));
}
console.log(`generated ${CONTRACTS.length} folders (${CONTRACTS.join(', ')}): types, SDK, contract.gen.ts`);
