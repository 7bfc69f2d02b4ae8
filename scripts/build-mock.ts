/**
 * What `npm run mock` (`scripts/mock.mjs`) runs from, built into `dist/mock/`
 * when its inputs changed (see fresh.mjs), so that a start with nothing
 * changed reads three files and loads no TypeScript tool:
 *
 * - `prism.cjs`: Prism's HTTP server (the one `prism mock` runs), bundled
 *   by esbuild into one file, with faker (used only by `Prefer: dynamic=true`
 *   answers) loaded from node_modules when first used;
 * - `operations.json`: Prism's operations of every contract merged at one
 *   origin (`mergedAtOrigin`), as `prism mock` derives them from the
 *   document at each start;
 * - `layer.json`: what the front layer knows of each path (its pattern, its
 *   integer path parameters, its service's `x-endpoint-layer`, its PNG
 *   example's file, each method's query parameters and statuses) and of
 *   each contract (its path prefixes);
 * - `front.mjs`: the front layer (`scripts/mock/front.ts`) with the server's
 *   code it shares, bundled by esbuild.
 *
 *   tsx scripts/build-mock.ts   (builds only when an input changed since the last build)
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { atOrigin, mergedAtOrigin, readContract, serverPath, serverUrl } from './contracts.js';
import type { MockLayer, MockPath, MockService } from './mock/front.js';
import { BUILD_INPUTS, BUILD_STAMPS, buildWhenChanged } from './fresh.mjs';
import { CONTRACTS, projectRoot } from './tools.js';

/** Where the mock's build goes. */
export const MOCK_DIR = join(projectRoot, 'dist/mock');

type Schema = { type?: string; $ref?: string; anyOf?: Schema[]; oneOf?: Schema[] };
type Operation = {
  parameters?: { $ref?: string; name?: string; in?: string; schema?: Schema }[];
  responses?: Record<string, unknown>;
};
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** What the front layer (scripts/mock/front.ts) knows of each path and each contract. */
function mockLayer(): MockLayer {
  const paths: MockPath[] = [];
  const services: MockService[] = [];
  const origins = new Set<string>();
  for (const name of CONTRACTS) {
    const written = readContract(name);
    const contract = atOrigin(written);
    const endpointLayer = contract['x-endpoint-layer'] as MockPath['endpointLayer'];
    const serverPaths = [
      written.servers,
      ...Object.values(written.paths ?? {}).map((item) => (item as { servers?: unknown }).servers),
    ]
      .flatMap((servers) =>
        ((servers as { url: string; variables?: Record<string, { default: string }> }[] | undefined) ?? []).slice(0, 1),
      )
      .map((server) => {
        origins.add(serverUrl(server).origin);
        return serverPath(server);
      });
    services.push({ name, prefixes: [...new Set(serverPaths.filter(Boolean))], endpointLayer });
    const components = contract.components as
      | { parameters?: Record<string, { name: string; in: string; schema?: Schema }>; schemas?: Record<string, Schema> }
      | undefined;
    const parameters = components?.parameters ?? {};
    // Whether a schema accepts a boolean, as the platform decides it (`acceptsBoolean` of src/platform/contract/compile.ts), through `$ref`s.
    const acceptsBoolean = (schema: Schema | undefined): boolean => {
      const resolved = schema?.$ref ? components?.schemas?.[schema.$ref.split('/').at(-1)!] : schema;
      return (
        resolved?.type === 'boolean' || [...(resolved?.anyOf ?? []), ...(resolved?.oneOf ?? [])].some(acceptsBoolean)
      );
    };
    for (const [path, item] of Object.entries(contract.paths ?? {})) {
      const segments = path.split('/');
      const integerNames = new Set<string>();
      let png: string | undefined;
      const methods: MockPath['methods'] = {};
      for (const [method, operation] of Object.entries(item) as [string, Operation][]) {
        if (!METHODS.has(method)) continue;
        const query: MockPath['methods'][string]['query'] = {};
        let defaultNumber: number | undefined;
        for (const parameter of [
          ...((item as { parameters?: Operation['parameters'] }).parameters ?? []),
          ...(operation?.parameters ?? []),
        ]) {
          const resolved = parameter.$ref ? parameters[parameter.$ref.split('/').at(-1)!] : parameter;
          if (resolved?.in === 'path' && resolved.schema?.type === 'integer') integerNames.add(resolved.name!);
          if (resolved?.in === 'query' && resolved.name)
            query[resolved.name] = {
              boolean: acceptsBoolean(resolved.schema),
              array: resolved.schema?.type === 'array',
            };
          if (resolved?.in === 'query' && resolved.name === 'number')
            defaultNumber = Number((resolved.schema as { default?: number } | undefined)?.default ?? 20);
        }
        // A list that pages by `page_handle` is paged by the front layer (scripts/mock/pages.ts).
        const pages = 'page_handle' in query ? { pages: { defaultNumber: defaultNumber ?? 20 } } : {};
        methods[method.toUpperCase()] = { query, statuses: Object.keys(operation?.responses ?? {}), ...pages };
        const examples = (
          operation?.responses?.['200'] as
            | { content?: Record<string, { examples?: Record<string, { externalValue?: string }> }> }
            | undefined
        )?.content?.['image/png']?.examples;
        const external = Object.values(examples ?? {}).find((example) => example.externalValue)?.externalValue;
        if (external) png = relative(projectRoot, join(projectRoot, 'openapi', external));
      }
      paths.push({
        service: name,
        methods,
        pattern: `^${segments.map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`,
        integerSegments: segments.flatMap((segment, index) => (integerNames.has(segment.slice(1, -1)) ? [index] : [])),
        pathParameters: segments.flatMap((segment, index) => {
          const name = /\{([^}]+)\}/.exec(segment)?.[1];
          return name ? [[index, name] as [number, string]] : [];
        }),
        endpointLayer,
        ...(png ? { png } : {}),
      });
    }
  }
  return { paths, services, origins: [...origins] };
}

/** Resolves as Prism's command line does: from @stoplight/prism-cli's folder, so its own versions of its packages. */
const prismRequire = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json'));

/**
 * faker loaded on first use: Prism requires it (every locale) at start-up
 * for `x-faker` in dynamically generated answers, which the examples
 * served by default never need.
 */
const fakerOnDemand: Plugin = {
  name: 'faker-on-demand',
  setup(build) {
    build.onResolve({ filter: /^@faker-js\/faker$/ }, (args) =>
      args.namespace === 'faker-on-demand'
        ? { path: args.path, external: true }
        : { path: 'faker', namespace: 'faker-on-demand' },
    );
    build.onLoad({ filter: /.*/, namespace: 'faker-on-demand' }, () => ({
      contents: `let faker;
const real = () => (faker ??= require('@faker-js/faker').faker);
module.exports = { default: new Proxy({}, { get: (_, key) => real()[key], has: (_, key) => key in real(), ownKeys: () => Reflect.ownKeys(real()), getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(real(), key) }) };`,
      loader: 'js',
      resolveDir: MOCK_DIR,
    }));
    // whatwg-url (under Prism's HTTP client) requires Node's `punycode`, deprecated (DEP0040, a warning at every start): the
    // same code from the npm package `punycode` (Prism's tree has it) is bundled instead; Node's when the package is absent.
    build.onResolve({ filter: /^punycode$/ }, () => {
      try {
        return { path: prismRequire.resolve('punycode/') };
      } catch {
        return undefined;
      }
    });
    // jsonc-parser's main entry is a UMD module whose require() of its own files a bundle cannot follow; its ES module build can be.
    build.onResolve({ filter: /^jsonc-parser$/ }, (args) => ({
      path: createRequire(args.importer).resolve('jsonc-parser/lib/esm/main.js'),
    }));
  },
};

/** Writes a file whole or not at all (two builds at once, as two test files may start, each write complete files). */
function writeAtomically(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

export async function buildMock(outDir = MOCK_DIR): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const partial = join(outDir, `prism.${process.pid}.partial.cjs`);
  await build({
    stdin: {
      contents:
        "exports.createServer = require('@stoplight/prism-http-server').createServer;\nexports.createLogger = require('@stoplight/prism-core').createLogger;\n",
      resolveDir: dirname(prismRequire.resolve('@stoplight/prism-cli/package.json')),
      loader: 'js',
    },
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    minifyWhitespace: true,
    plugins: [fakerOnDemand],
    logLevel: 'error',
  });
  renameSync(partial, join(outDir, 'prism.cjs'));
  const { getHttpOperationsFromSpec } = prismRequire('@stoplight/prism-cli/dist/operations.js') as {
    getHttpOperationsFromSpec: (document: object) => Promise<unknown[]>;
  };
  writeAtomically(
    join(outDir, 'operations.json'),
    JSON.stringify(await getHttpOperationsFromSpec(mergedAtOrigin(CONTRACTS))),
  );
  writeAtomically(join(outDir, 'layer.json'), JSON.stringify(mockLayer()));
  // The front layer with the server's code it shares, in one file; sharp (native) stays in node_modules.
  const front = join(outDir, `front.${process.pid}.partial.mjs`);
  await build({
    entryPoints: [join(projectRoot, 'scripts/mock/front.ts')],
    outfile: front,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: ['sharp'],
    logLevel: 'error',
  });
  renameSync(front, join(outDir, 'front.mjs'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildWhenChanged(BUILD_STAMPS.mock, BUILD_INPUTS.mock, () => buildMock());
}
