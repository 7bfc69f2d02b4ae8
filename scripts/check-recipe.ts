/**
 * `npm run check:recipe`: proves the recipe of docs/architecture.md ("add an
 * operation"): a new operation touches its contract and its service folder,
 * and the compiler says what is missing. In a scratch copy of the project
 * it adds an operation to the profiles contract and regenerates; the type
 * check must then fail, naming the operation, in the service folder only
 * (its handler map and its policy table); with a handler and a policy added
 * there it must still fail while the handler's answer lacks the header the
 * contract requires on it, and pass once it carries it. Nothing outside
 * `openapi/profiles.yaml`, `generated/profiles/` and `src/services/profiles/`
 * is touched. Exits non-zero when any of that does not hold.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { parseYaml } from './contracts.js';
import { projectRoot, quietToolEnv } from './tools.js';

const OPERATION = 'getProfileBadge';
/** A header the new operation's 200 requires, which no policy writes: its handler must answer it. */
const HEADER = 'X-Badge-Version';
const scratch = mkdtempSync(join(tmpdir(), 'recipe-'));
const failures: string[] = [];

/** Runs a tool of the project's in the scratch copy; its status and output. */
function inScratch(bin: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(join(projectRoot, 'node_modules/.bin', bin), args, { cwd: scratch, env: quietToolEnv, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Replaces `anchor` in a scratch file with `replacement` (which keeps it); fails loudly when the anchor moved. */
function insertBefore(file: string, anchor: string, inserted: string): void {
  const path = join(scratch, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(anchor)) throw new Error(`${file} no longer contains "${anchor}": update scripts/check-recipe.ts`);
  writeFileSync(path, text.replace(anchor, `${inserted}${anchor}`));
}

try {
  for (const entry of ['src', 'generated', 'openapi', 'scripts', 'package.json', 'tsconfig.json', 'openapi-ts.config.ts']) {
    cpSync(join(projectRoot, entry), join(scratch, entry), { recursive: true });
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(scratch, 'node_modules'), 'dir');

  // 1. The contract: a new operation.
  const contractFile = join(scratch, 'openapi/profiles.yaml');
  const contract = parseYaml(readFileSync(contractFile, 'utf8')) as { paths: Record<string, unknown> };
  contract.paths['/profiles/{profileIdentifier}/badge'] = {
    get: {
      operationId: OPERATION,
      summary: 'A badge of a profile',
      description: 'A probe of the recipe.',
      tags: ['profiles'],
      security: [{}],
      parameters: [{ name: 'profileIdentifier', in: 'path', required: true, description: 'x', schema: { type: 'string' } }],
      responses: {
        '200': {
          description: 'The badge.',
          headers: { [HEADER]: { description: 'x', required: true, schema: { type: 'string' } } },
          content: { 'application/json': { schema: { type: 'object', properties: { label: { type: 'string' } } } } },
        },
      },
    },
  };
  writeFileSync(contractFile, dump(contract, { lineWidth: -1, noRefs: true }));
  const generated = inScratch('tsx', ['scripts/generate.ts']);
  if (generated.status !== 0) failures.push(`npm run generate failed in the scratch copy:\n${generated.output}`);

  // 2. The compiler names what is missing, in the service folder only.
  const missing = inScratch('tsc', ['-p', '.']);
  const errorFiles = [...missing.output.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((match) => match[1]!);
  if (missing.status === 0) failures.push('the type check passed with an operation that has no handler and no policy');
  if (!missing.output.includes(OPERATION)) failures.push(`the type check did not name ${OPERATION}:\n${missing.output}`);
  const elsewhere = errorFiles.filter((file) => !file.startsWith('src/services/profiles/'));
  if (elsewhere.length) failures.push(`the type check failed outside the service folder: ${[...new Set(elsewhere)].join(', ')}`);
  for (const file of ['src/services/profiles/handlers.ts', 'src/services/profiles/module.ts']) {
    if (!errorFiles.includes(file)) failures.push(`the type check did not fail in ${file} (a handler or policy missing for ${OPERATION} went unnoticed)`);
  }

  // 3. A handler and a policy in the service folder, the handler's answer without the header its status requires: still an error, there.
  insertBefore('src/services/profiles/handlers.ts', 'getOpenApiDocument: openApiDocumentHandler', `${OPERATION}: async () => ({ status: 200, body: { label: 'ok' } }),\n    `);
  insertBefore('src/services/profiles/module.ts', 'getOpenApiDocument: { admit: documents, present: presentJsonAnswer }', `${OPERATION}: { present: presentJsonAnswer },\n    `);
  const headerless = inScratch('tsc', ['-p', '.']);
  const headerlessFiles = [...headerless.output.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((match) => match[1]!);
  if (headerless.status === 0) failures.push(`the type check passed with an answer of ${OPERATION} without its required ${HEADER} header`);
  if (!headerless.output.includes(HEADER)) failures.push(`the type check did not name the missing ${HEADER} header:\n${headerless.output}`);
  const notHandlers = headerlessFiles.filter((file) => file !== 'src/services/profiles/handlers.ts');
  if (notHandlers.length) failures.push(`the missing header was reported outside the handler map: ${[...new Set(notHandlers)].join(', ')}`);

  // 4. The answer carries the header, and nothing else changed: the type check passes.
  const handlersFile = join(scratch, 'src/services/profiles/handlers.ts');
  writeFileSync(
    handlersFile,
    readFileSync(handlersFile, 'utf8').replace(`body: { label: 'ok' } })`, `body: { label: 'ok' }, headers: { '${HEADER}': '1' } })`),
  );
  const complete = inScratch('tsc', ['-p', '.']);
  if (complete.status !== 0) failures.push(`the type check still fails with the handler and the policy added:\n${complete.output}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (failures.length) {
  for (const failure of failures) console.log(`FAILED ${failure}`);
  process.exit(1);
}
console.log(
  `recipe: ${OPERATION} added to the contract; the type check named it in src/services/profiles/ only (handler map and policy table), ` +
    `named the ${HEADER} header its handler's answer lacked, and passed once the answer carried it`,
);
