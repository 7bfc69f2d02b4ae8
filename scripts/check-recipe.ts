/**
 * `npm run check:recipe`: proves the recipes of docs/architecture.md.
 *
 * "Add an operation": a new operation touches its contract and its service folder,
 * and the compiler says what is missing. In a scratch copy of the project
 * it adds an operation to the profiles contract and regenerates; the type
 * check must then fail, naming the operation, in the service folder only
 * (its handler map and its policy table); with a handler and a policy added
 * there it must still fail while the handler's answer lacks the header the
 * contract requires on it, and pass once it carries it. Nothing outside
 * `openapi/profiles.yaml`, `generated/profiles/` and `src/services/profiles/`
 * is touched.
 *
 * "Add a service": in the same scratch copy it adds a small service the way
 * the recipe says: its folder (`operations.ts`, `handlers.ts`, `module.ts`)
 * written first, so the type check fails naming its generated contract
 * until the contract file is added and `npm run generate` run; then fails
 * naming the operation its handler map lacks, in that folder only, until
 * the handler is written. Built without its line in `SERVICES`, the app does
 * not answer its path (404); with the line, the app answers a request to it
 * as the contract says. Exits non-zero when any of that does not hold.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { parseYaml } from './contracts.js';
import { projectRoot, quietToolEnv } from './tools.js';

const OPERATION = 'getProfileBadge';
/** The small service the recipe adds: its name, its prefix (its contract's server path) and its one operation. */
const SERVICE = 'greetings';
const SERVICE_PREFIX = '/greetings/v1';
const SERVICE_OPERATION = 'getGreeting';
/** A header the new operation's 200 requires, which no policy writes: its handler must answer it. */
const HEADER = 'X-Badge-Version';
const scratch = mkdtempSync(join(tmpdir(), 'recipe-'));
const failures: string[] = [];

/** Runs a tool of the project's in the scratch copy; its status and output. */
function inScratch(bin: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(join(projectRoot, 'node_modules/.bin', bin), args, {
    cwd: scratch,
    env: quietToolEnv,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Replaces `anchor` in a scratch file with `replacement` (which keeps it); fails loudly when the anchor moved. */
function insertBefore(file: string, anchor: string, inserted: string): void {
  const path = join(scratch, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(anchor)) throw new Error(`${file} no longer contains "${anchor}": update scripts/check-recipe.ts`);
  writeFileSync(path, text.replace(anchor, `${inserted}${anchor}`));
}

/** The files a type check's output names errors in. */
const errorFilesOf = (output: string) =>
  [...output.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((match) => match[1]!);

/** Writes a file of the scratch copy. */
const writeScratch = (file: string, text: string) => writeFileSync(join(scratch, file), text);

try {
  for (const entry of [
    'src',
    'generated',
    'openapi',
    'scripts',
    'package.json',
    'tsconfig.json',
    'openapi-ts.config.ts',
  ]) {
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
      parameters: [
        { name: 'profileIdentifier', in: 'path', required: true, description: 'x', schema: { type: 'string' } },
      ],
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
  if (!missing.output.includes(OPERATION))
    failures.push(`the type check did not name ${OPERATION}:\n${missing.output}`);
  const elsewhere = errorFiles.filter((file) => !file.startsWith('src/services/profiles/'));
  if (elsewhere.length)
    failures.push(`the type check failed outside the service folder: ${[...new Set(elsewhere)].join(', ')}`);
  for (const file of ['src/services/profiles/handlers.ts', 'src/services/profiles/module.ts']) {
    if (!errorFiles.includes(file))
      failures.push(
        `the type check did not fail in ${file} (a handler or policy missing for ${OPERATION} went unnoticed)`,
      );
  }

  // 3. A handler and a policy in the service folder, the handler's answer without the header its status requires: still an error, there.
  insertBefore(
    'src/services/profiles/handlers.ts',
    'getOpenApiDocument: openApiDocumentHandler',
    `${OPERATION}: async () => ({ status: 200, body: { label: 'ok' } }),\n    `,
  );
  insertBefore(
    'src/services/profiles/module.ts',
    'getOpenApiDocument: { admit: documents, present: presentJsonAnswer }',
    `${OPERATION}: { present: presentJsonAnswer },\n    `,
  );
  const headerless = inScratch('tsc', ['-p', '.']);
  const headerlessFiles = [...headerless.output.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((match) => match[1]!);
  if (headerless.status === 0)
    failures.push(`the type check passed with an answer of ${OPERATION} without its required ${HEADER} header`);
  if (!headerless.output.includes(HEADER))
    failures.push(`the type check did not name the missing ${HEADER} header:\n${headerless.output}`);
  const notHandlers = headerlessFiles.filter((file) => file !== 'src/services/profiles/handlers.ts');
  if (notHandlers.length)
    failures.push(`the missing header was reported outside the handler map: ${[...new Set(notHandlers)].join(', ')}`);

  // 4. The answer carries the header, and nothing else changed: the type check passes.
  const handlersFile = join(scratch, 'src/services/profiles/handlers.ts');
  writeFileSync(
    handlersFile,
    readFileSync(handlersFile, 'utf8').replace(
      `body: { label: 'ok' } })`,
      `body: { label: 'ok' }, headers: { '${HEADER}': '1' } })`,
    ),
  );
  const complete = inScratch('tsc', ['-p', '.']);
  if (complete.status !== 0)
    failures.push(`the type check still fails with the handler and the policy added:\n${complete.output}`);

  // The recipe "add a service". 2 before 1: its folder first, which names its generated contract; the type check names that.
  mkdirSync(join(scratch, `src/services/${SERVICE}`));
  writeScratch(
    `src/services/${SERVICE}/operations.ts`,
    `import type { Operations } from '../../../generated/${SERVICE}/contract.gen.js';
import type { HandlerMap, PolicyTable } from '../../platform/pipeline/handlerTypes.js';
import type { ServiceDefinition } from '../../platform/pipeline/service.js';

export type GreetingsPrincipal = { kind: 'anonymous' };
export type GreetingsHandlers = HandlerMap<Operations, GreetingsPrincipal>;
export type GreetingsPolicies = PolicyTable<Operations, GreetingsPrincipal>;
export type GreetingsDefinition = ServiceDefinition<GreetingsPrincipal, Operations>;
`,
  );
  writeScratch(
    `src/services/${SERVICE}/handlers.ts`,
    `import type { GreetingsHandlers } from './operations.js';\n\nexport const handlers: GreetingsHandlers = {};\n`,
  );
  writeScratch(
    `src/services/${SERVICE}/module.ts`,
    `import { PREFIX } from '../../../generated/${SERVICE}/contract.gen.js';
import { ApiError, messageAndCodeBody } from '../../platform/answers/errors.js';
import type { ServiceModule } from '../../platform/module.js';
import { servedDefinition } from '../../platform/pipeline/service.js';
import { handlers } from './handlers.js';
import type { GreetingsDefinition, GreetingsPolicies } from './operations.js';

const policies: GreetingsPolicies = { ${SERVICE_OPERATION}: {} };

export const greetingsModule: ServiceModule = {
  name: '${SERVICE}',
  contractFile: 'openapi/${SERVICE}.yaml',
  migrations: [],
  create({ contract }) {
    const definition: GreetingsDefinition = {
      name: '${SERVICE}',
      prefix: PREFIX,
      contract,
      anonymous: { kind: 'anonymous' },
      security: {},
      unauthenticated: (reason) => new ApiError(401, 'unauthenticated', reason),
      errorBody: messageAndCodeBody,
      handlers,
      policies,
    };
    return { definition: servedDefinition(definition) };
  },
};
`,
  );
  const ungenerated = inScratch('tsc', ['-p', '.']);
  if (ungenerated.status === 0)
    failures.push(`the type check passed with ${SERVICE}'s module and no contract generated for it`);
  if (!ungenerated.output.includes(`generated/${SERVICE}/contract.gen.js`))
    failures.push(`the type check did not name generated/${SERVICE}/contract.gen.js:\n${ungenerated.output}`);

  // 1. Its contract, generated.
  writeScratch(
    `openapi/${SERVICE}.yaml`,
    dump(
      {
        openapi: '3.1.0',
        info: {
          title: 'Greetings',
          version: '1.0.0',
          description: 'A probe of the recipe.',
          license: { name: 'MIT', identifier: 'MIT' },
        },
        servers: [{ url: `http://localhost:8080${SERVICE_PREFIX}` }],
        tags: [{ name: SERVICE, description: 'x' }],
        paths: {
          '/greeting': {
            get: {
              operationId: SERVICE_OPERATION,
              summary: 'A greeting',
              description: 'x',
              tags: [SERVICE],
              security: [],
              parameters: [
                {
                  name: 'name',
                  in: 'query',
                  required: false,
                  description: 'x',
                  schema: { type: 'string', maxLength: 20 },
                },
              ],
              responses: {
                '200': {
                  description: 'The greeting.',
                  content: {
                    'application/json': {
                      schema: {
                        type: 'object',
                        required: ['greeting'],
                        additionalProperties: false,
                        properties: { greeting: { type: 'string' } },
                      },
                    },
                  },
                },
                '400': {
                  description: 'A bad name.',
                  content: {
                    'application/json': {
                      schema: {
                        type: 'object',
                        required: ['error', 'code'],
                        properties: { error: { type: 'string' }, code: { type: 'string' } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      { lineWidth: -1, noRefs: true },
    ),
  );
  const serviceGenerated = inScratch('tsx', ['scripts/generate.ts']);
  if (serviceGenerated.status !== 0)
    failures.push(`npm run generate failed with ${SERVICE}'s contract:\n${serviceGenerated.output}`);

  // 2. The handler map without the operation's handler: the type check names it, in the service's folder only.
  const handlerless = inScratch('tsc', ['-p', '.']);
  const handlerlessFiles = errorFilesOf(handlerless.output);
  if (handlerless.status === 0)
    failures.push(`the type check passed with ${SERVICE}'s handler map lacking ${SERVICE_OPERATION}`);
  if (!handlerless.output.includes(SERVICE_OPERATION))
    failures.push(`the type check did not name ${SERVICE_OPERATION}:\n${handlerless.output}`);
  const outside = handlerlessFiles.filter((file) => file !== `src/services/${SERVICE}/handlers.ts`);
  if (outside.length)
    failures.push(
      `the missing handler was reported outside ${SERVICE}'s handler map: ${[...new Set(outside)].join(', ')}`,
    );
  writeScratch(
    `src/services/${SERVICE}/handlers.ts`,
    `import type { GreetingsHandlers } from './operations.js';

export const handlers: GreetingsHandlers = {
  ${SERVICE_OPERATION}: ({ query }) => ({ status: 200, body: { greeting: \`hello, \${query.name ?? 'world'}\` } }),
};
`,
  );
  const serviceComplete = inScratch('tsc', ['-p', '.']);
  if (serviceComplete.status !== 0)
    failures.push(`the type check still fails with ${SERVICE}'s handler written:\n${serviceComplete.output}`);

  // 3. The app serves it only once its module is in SERVICES: a request through the app, before and after.
  writeScratch(
    'probe.ts',
    `import { buildApp, configFromEnv } from './src/app.js';
const built = await buildApp(configFromEnv({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', SEED_DEMO_DATA: 'false' }));
const server = built.app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as { port: number };
const answers = [];
for (const query of ['?name=recipe', '?name=${'x'.repeat(21)}']) {
  const res = await fetch(\`http://127.0.0.1:\${port}${SERVICE_PREFIX}/greeting\${query}\`);
  answers.push({ status: res.status, body: await res.text() });
}
server.close();
await built.close();
console.log(JSON.stringify(answers));
`,
  );
  const probe = () => {
    const run = inScratch('tsx', ['probe.ts']);
    const line = run.output.trim().split('\n').at(-1) ?? '';
    try {
      return JSON.parse(line) as { status: number; body: string }[];
    } catch {
      failures.push(`the request through the scratch app failed:\n${run.output}`);
      return [];
    }
  };
  const unregistered = probe();
  if (unregistered[0] && unregistered[0].status !== 404)
    failures.push(
      `the app answered ${SERVICE}'s path before its module was in SERVICES: ${JSON.stringify(unregistered[0])}`,
    );
  insertBefore(
    'src/app.ts',
    'export const SERVICES = [',
    `import { greetingsModule } from './services/${SERVICE}/module.js';\n`,
  );
  const servicesFile = join(scratch, 'src/app.ts');
  const services = readFileSync(servicesFile, 'utf8');
  writeFileSync(
    servicesFile,
    services.replace(
      /export const SERVICES = \[([^\]]*)\]/,
      (_, modules: string) => `export const SERVICES = [${modules}, greetingsModule]`,
    ),
  );
  const registered = probe();
  if (JSON.stringify(registered[0]) !== JSON.stringify({ status: 200, body: '{"greeting":"hello, recipe"}' })) {
    failures.push(
      `the app did not answer ${SERVICE_PREFIX}/greeting as its contract says once registered: ${JSON.stringify(registered[0])}`,
    );
  }
  if (registered[1]?.status !== 400 || !registered[1].body.includes('"code":"invalid_request"')) {
    failures.push(
      `the app did not refuse a name its contract refuses, in the service's error body: ${JSON.stringify(registered[1])}`,
    );
  }
  const registeredCheck = inScratch('tsc', ['-p', '.']);
  if (registeredCheck.status !== 0)
    failures.push(`the type check fails with ${SERVICE} in SERVICES:\n${registeredCheck.output}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (failures.length) {
  for (const failure of failures) console.log(`FAILED ${failure}`);
  process.exit(1);
}
console.log(
  `recipe: ${OPERATION} added to the contract; the type check named it in src/services/profiles/ only (handler map and policy table), ` +
    `named the ${HEADER} header its handler's answer lacked, and passed once the answer carried it; ` +
    `${SERVICE} added as a service: the type check named its generated contract until it was generated, then ${SERVICE_OPERATION} ` +
    `in its handler map only, until its handler was written; the app answered ${SERVICE_PREFIX}/greeting 404 without it in SERVICES, ` +
    `and as its contract says (200, and 400 for a bad name) with it`,
);
