/**
 * `npm run build:sdk`: one npm package per contract, packed to
 * `<outDir>/<name>-<version>.tgz` (default `dist/sdk/`), e.g.
 * `contract-first-profiles-3.1.0.tgz`: `@contract-first/<service>` at the
 * contract's `info.version`, ES modules and `.d.ts` in `dist/`, CommonJS in `dist/cjs/`, no
 * dependencies. See docs/sdk.md.
 *
 * A package is `generated/<service>/` as `npm run generate` wrote it (its
 * types, SDK functions and hey-api's fetch client), the layer of
 * `sdk/layer.ts` (a client factory, `Result` per status), the service's own
 * `sdk/<service>.ts` where there is one (with the folder `sdk/<service>/` of
 * the modules it imports, where there is one), and two files written here from the
 * contract: `operations.ts` (each operation answering a `Result`, with its
 * declared statuses and the server of an operation that has its own) and
 * `index.ts`. One `tsc` compiles every package (its own configuration,
 * below); `npm pack` packs them.
 *
 *   tsx scripts/build-sdk.ts [outDir]
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { parseYaml } from './contracts.js';
import { CONTRACTS, projectRoot, quietToolEnv, run } from './tools.js';

/** The npm scope of the packages. */
export const SDK_SCOPE = '@contract-first';

/** npm with its update check (a request to the registry) and the audit and funding notices off. */
export const npmEnv: NodeJS.ProcessEnv = {
  ...quietToolEnv,
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

/** How the packages are compiled: ES modules for Node 20 and browsers, with declarations, against the standard fetch types only. */
const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  types: [],
  strict: true,
  declaration: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  newLine: 'lf',
  rootDir: '.',
  outDir: 'out',
};

/**
 * The same sources again as CommonJS, for `require`, shipped in `dist/cjs/`
 * with a `package.json` saying `commonjs`: each module transpiled on its own
 * (`ts.transpileModule`, which `isolatedModules` makes the same as a
 * compilation: the output is byte for byte what `tsc` emits for a CommonJS
 * folder under `NodeNext`, which implies `esModuleInterop`), beside the
 * declarations of the ES build (the same text). The one `tsc` above checks
 * the types; a second compilation of the same sources checked nothing more.
 */
const CJS_COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  esModuleInterop: true,
  isolatedModules: true,
  newLine: ts.NewLineKind.LineFeed,
};

/** Every file below `folder`, as paths relative to it. */
const filesBelow = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1));

/** The CommonJS build of a package's `src` into `dist/cjs`, beside its ES build in `dist` (see `CJS_COMPILER_OPTIONS`). */
function writeCommonJs(src: string, dist: string): void {
  const cjs = join(dist, 'cjs');
  for (const file of filesBelow(src).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))) {
    const module = file.slice(0, -'.ts'.length);
    mkdirSync(dirname(join(cjs, module)), { recursive: true });
    const { outputText } = ts.transpileModule(readFileSync(join(src, file), 'utf8'), {
      fileName: join(src, file),
      compilerOptions: CJS_COMPILER_OPTIONS,
    });
    writeFileSync(join(cjs, `${module}.js`), outputText);
    copyFileSync(join(dist, `${module}.d.ts`), join(cjs, `${module}.d.ts`));
  }
  writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
}

/**
 * Type names the index leaves out because they would shadow JavaScript's
 * own in a consumer's module (publishing's `number` parameter is typed
 * `Number`); hey-api names `Error` schemas `<Service>Error` already.
 */
const JAVASCRIPT_NAMES = new Set([
  'Array',
  'Blob',
  'Boolean',
  'Date',
  'Error',
  'File',
  'Function',
  'Headers',
  'Map',
  'Number',
  'Object',
  'Promise',
  'RegExp',
  'Request',
  'Response',
  'Set',
  'String',
  'Symbol',
  'URL',
]);

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Server {
  url: string;
  variables?: Record<string, { default?: string }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  responses?: Record<string, unknown>;
  servers?: Server[];
}
type PathItem = Partial<Record<(typeof HTTP_METHODS)[number], Operation>> & { servers?: Server[] };
interface Document {
  info: { title: string; version: string; license?: { identifier?: string; name?: string } };
  servers?: Server[];
  paths?: Record<string, PathItem>;
}

const serverUrl = (server: Server) =>
  server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '').replace(/\/+$/, '');

const pascal = (id: string) => `${id[0]!.toUpperCase()}${id.slice(1)}`;

/**
 * `operations.ts`: each operation of the contract as a function answering a
 * `Result` (`sdk/layer.ts`). `types` and `sdk` are the generated
 * `types.gen.ts` and `sdk.gen.ts`, read to follow hey-api's names.
 */
function operationsModule(
  name: string,
  document: Document,
  types: string,
  sdk: string,
): { text: string; ids: string[] } {
  const documentServer = document.servers?.[0];
  const lines: string[] = [];
  const ids: string[] = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const id = operation.operationId;
      const statuses = Object.keys(operation.responses ?? {}).map((status) => {
        if (!/^[1-5]\d\d$/.test(status))
          throw new Error(`${name}: ${id} declares response ${status}; the SDK layer knows only numeric statuses`);
        return Number(status);
      });
      const type = (suffix: string) =>
        types.includes(`export type ${pascal(id)}${suffix} = `) ? `T.${pascal(id)}${suffix}` : 'never';
      if (type('Data') === 'never')
        throw new Error(`${name}: openapi-ts wrote no type ${pascal(id)}Data for operation ${id}`);
      // hey-api types 2xx answers and errors; a declared 1xx or 3xx (304, 302) is an answer without a body.
      const redirects = statuses.filter((status) => status < 200 || (status >= 300 && status < 400));
      const optional = new RegExp(`export const ${id} = <[^>]*>\\(options\\?:`).test(sdk);
      const own = operation.servers ?? item.servers;
      let server = '';
      if (own?.[0] && documentServer) {
        const [base, its] = [serverUrl(documentServer), serverUrl(own[0])];
        server = `, ${JSON.stringify(base.startsWith(its) ? { strip: base.slice(its.length) } : { baseUrl: its })}`;
      }
      const result = `Result<${type('Responses')}, ${type('Errors')}${redirects.length ? `, ${redirects.join(' | ')}` : ''}>`;
      if (operation.summary) lines.push(`/** ${operation.summary.replaceAll('*/', '*\\/')} */`);
      lines.push(
        `export const ${id} = (options${optional ? '?' : ''}: CallOptions<${type('Data')}>): Promise<${result}> =>`,
        `  settle(sdk.${id}, options, ${JSON.stringify(statuses)}${server});`,
        '',
      );
      ids.push(id);
    }
  }
  const text = [
    `// Written from openapi/${name}.yaml by scripts/build-sdk.ts; each operation answers one Result variant per declared status.`,
    '',
    "import { settle, type CallOptions, type Result } from './layer.js';",
    "import * as sdk from './sdk.gen.js';",
    "import type * as T from './types.gen.js';",
    '',
    ...lines,
  ].join('\n');
  return { text, ids };
}

/**
 * `index.ts`: the types, the client, the layer and the operations (a service's own module, `sdk/<service>.ts`,
 * replaces those it exports, and adds its own types).
 */
function indexModule(name: string, types: string, ids: string[], own: string | undefined): string {
  const typeNames = [...types.matchAll(/^export type (\w+)/gm)].map((match) => match[1]!);
  const shown = typeNames.filter((type) => type !== 'ClientOptions' && !JAVASCRIPT_NAMES.has(type));
  const replaced = new Set(own ? [...own.matchAll(/^export const (\w+)/gm)].map((match) => match[1]!) : []);
  const ownTypes = own ? [...own.matchAll(/^export (?:type|interface) (\w+)/gm)].map((match) => match[1]!) : [];
  const clash = ownTypes.filter((type) => typeNames.includes(type));
  if (clash.length)
    throw new Error(`${name}: sdk/${name}.ts exports types the contract's also names: ${clash.join(', ')}`);
  return [
    `// Written from openapi/${name}.yaml by scripts/build-sdk.ts: the package's entry point.`,
    '',
    `export type { ${shown.join(', ')} } from './types.gen.js';`,
    "export type { Auth, Client, Config } from './client/index.js';",
    "export { client, createClient, defaultBaseUrl, defaultUserAgent, UnexpectedStatusError } from './layer.js';",
    "export type { CallOptions, Result, RetryOptions, SdkClient, SdkConfig, SdkOptions } from './layer.js';",
    `export { ${ids.filter((id) => !replaced.has(id)).join(', ')} } from './operations.js';`,
    ...(own ? [`export { ${[...replaced].join(', ')} } from './${name}.js';`] : []),
    ...(ownTypes.length ? [`export type { ${ownTypes.join(', ')} } from './${name}.js';`] : []),
    '',
  ].join('\n');
}

/** `package.ts`: the package's name and version, for its `User-Agent`. */
function packageModule(name: string, document: Document): string {
  return [
    '// Written by scripts/build-sdk.ts: the package this code is, named in its User-Agent.',
    `export const SDK_PACKAGE = ${JSON.stringify({ name: `${SDK_SCOPE}/${name}`, version: document.info.version })} as const;`,
    '',
  ].join('\n');
}

/** `package.json` of the package of contract `name`: its name and version are the contract's (docs/sdk.md lists them). */
export function packageJson(
  name: string,
  document: Document,
): { name: string; version: string } & Record<string, unknown> {
  return {
    name: `${SDK_SCOPE}/${name}`,
    version: document.info.version,
    description: `${document.info.title}: typed fetch client, generated from its OpenAPI contract`,
    ...(document.info.license?.identifier ? { license: document.info.license.identifier } : {}),
    type: 'module',
    exports: {
      '.': {
        import: { types: './dist/index.d.ts', default: './dist/index.js' },
        require: { types: './dist/cjs/index.d.ts', default: './dist/cjs/index.js' },
      },
      './package.json': './package.json',
    },
    main: './dist/cjs/index.js',
    types: './dist/index.d.ts',
    files: ['dist'],
    sideEffects: false,
    engines: { node: '>=20' },
  };
}

function readme(name: string, document: Document, ids: string[]): string {
  return [
    `# ${SDK_SCOPE}/${name}`,
    '',
    `${document.info.title} ${document.info.version}: a typed fetch client generated from its OpenAPI contract. ES modules, TypeScript declarations, no dependencies; Node 20 or a browser.`,
    '',
    '```js',
    `import { createClient, ${ids[0]} } from '${SDK_SCOPE}/${name}';`,
    '',
    `const api = createClient({ baseUrl: '${document.servers?.[0] ? serverUrl(document.servers[0]) : 'https://…'}' }); // the contract's default; your deployment's address`,
    `const answer = await ${ids[0]}({ client: api /* , path, query … */ });`,
    'if (answer.ok) console.log(answer.data); else console.log(answer.status, answer.error);',
    '```',
    '',
    `Operations: ${ids.map((id) => `\`${id}\``).join(', ')}. Each answers \`{ ok, status, data | error, response }\`, one variant per status the contract declares.`,
    '',
  ].join('\n');
}

/** Runs npm and resolves with its standard output; rejects on a non-zero exit. */
function npm(args: string[], cwd: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npm', args, { cwd, env: npmEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolvePromise(out) : reject(new Error(`npm ${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}

/** Builds and packs every package into `outDir` (emptied first); resolves with the tarballs' paths. */
export async function buildSdk(outDir: string): Promise<string[]> {
  const stage = mkdtempSync(join(tmpdir(), 'sdk-build-'));
  try {
    for (const name of CONTRACTS) {
      const document = parseYaml(readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8')) as Document;
      const generated = join(projectRoot, 'generated', name);
      const src = join(stage, name, 'src');
      // hey-api's own index is replaced below; contract.gen.ts and casts.gen.ts type the server's modules and its
      // casting step (a multipart file is a Node Buffer there), not a client.
      const left = new Set([
        join(generated, 'index.ts'),
        join(generated, 'contract.gen.ts'),
        join(generated, 'casts.gen.ts'),
      ]);
      cpSync(generated, src, { recursive: true, filter: (path) => !left.has(path) });
      cpSync(join(projectRoot, 'sdk', 'layer.ts'), join(src, 'layer.ts'));
      const ownPath = join(projectRoot, 'sdk', `${name}.ts`);
      const own = existsSync(ownPath) ? readFileSync(ownPath, 'utf8') : undefined;
      if (own !== undefined) writeFileSync(join(src, `${name}.ts`), own);
      // The modules the service's own module imports besides the package's (profiles' email helpers).
      const ownFolder = join(projectRoot, 'sdk', name);
      if (existsSync(ownFolder)) cpSync(ownFolder, join(src, name), { recursive: true });
      const types = readFileSync(join(generated, 'types.gen.ts'), 'utf8');
      const operations = operationsModule(name, document, types, readFileSync(join(generated, 'sdk.gen.ts'), 'utf8'));
      writeFileSync(join(src, 'operations.ts'), operations.text);
      writeFileSync(join(src, 'index.ts'), indexModule(name, types, operations.ids, own));
      writeFileSync(join(src, 'package.ts'), packageModule(name, document));
      writeFileSync(join(stage, name, 'package.json'), `${JSON.stringify(packageJson(name, document), null, 2)}\n`);
      writeFileSync(join(stage, name, 'README.md'), readme(name, document, operations.ids));
    }
    writeFileSync(
      join(stage, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['*/src/**/*.ts'] }, null, 2),
    );
    const code = await run('tsc', ['-p', join(stage, 'tsconfig.json')]);
    if (code !== 0) throw new Error(`tsc failed to compile the SDK packages (exit ${code})`);
    for (const name of CONTRACTS) {
      renameSync(join(stage, 'out', name, 'src'), join(stage, name, 'dist'));
      writeCommonJs(join(stage, name, 'src'), join(stage, name, 'dist'));
    }
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const packed = JSON.parse(
      await npm(
        [
          'pack',
          ...CONTRACTS.map((name) => join(stage, name)),
          '--pack-destination',
          outDir,
          '--json',
          '--ignore-scripts',
        ],
        stage,
      ),
    ) as { filename: string }[];
    return packed.map((tarball) => join(outDir, tarball.filename));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tarballs = await buildSdk(resolve(projectRoot, process.argv[2] ?? 'dist/sdk'));
  console.log(`packed ${tarballs.length} SDK packages:\n${tarballs.map((path) => `  ${path}`).join('\n')}`);
}
