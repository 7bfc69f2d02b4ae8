// @store-independent
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type BuildOptions, type Plugin, type PluginBuild } from 'esbuild';
import { BUNDLE_PLUGINS, buildServer } from '../../../scripts/build-server.js';
import { CONTRACTS, projectRoot } from '../../../scripts/tools.js';
import { compileContract, type CompiledContract } from '../../../src/platform/contract/document.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { lastLine, startProcess, type ServerProcess } from '../../support/processes.js';

/**
 * `npm run build:server` bundles the server (scripts/build-server.ts) and
 * `npm run start:prod` runs the bundle with node. Here the same build goes to
 * a folder of its own inside the project (so a developer's dist/ is left
 * alone, and the contracts and built pages are found from it as from
 * dist/server/). The type check before it is `npm run typecheck`'s.
 */
const outDir = join(projectRoot, '.tmp', `server-build-${process.pid}`);
let server: ServerProcess | undefined;
let call: typeof fetch;

beforeAll(async () => {
  await buildServer(outDir);
  call = contractFetch(await contractChecker());
}, 180_000);

afterAll(async () => {
  await server?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is one JavaScript file with its source map (and the admin command line another): node runs it without tsx', async () => {
    expect(readdirSync(join(outDir, 'src'), { recursive: true }).sort()).toEqual([
      'admin',
      'admin/cli.js',
      'admin/cli.js.map',
      'main.js',
      'main.js.map',
      'passwordEstimatorWorker.js',
      'passwordEstimatorWorker.js.map',
    ]);
    const help = await promisify(execFile)(process.execPath, [join(outDir, 'src/admin/cli.js'), '--help'], {
      cwd: projectRoot,
    });
    expect(help.stdout).toContain('tokens');
    const map = JSON.parse(readFileSync(join(outDir, 'src/main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((source) => source.endsWith('src/main.ts'))).toBe(true);
    // What the server imports with import() (tracing's SDK, Redis, mail, password dictionaries) is left in node_modules: a start
    // does not parse it. (@opentelemetry/api itself is bundled: prom-client requires it.)
    expect(
      map.sources.filter((source) =>
        /node_modules\/(@opentelemetry\/(?!api\/)|ioredis\/|nodemailer\/|@zxcvbn-ts\/)/.test(source),
      ),
    ).toEqual([]);
    // Nor is what only a publishing filter or the command line needs (sanitize-html with postcss, commander).
    expect(map.sources.filter((source) => /node_modules\/(sanitize-html|postcss|commander)\//.test(source))).toEqual(
      [],
    );
    // The password strength worker, a bundle of its own, made from its module; its dictionaries stay in node_modules too.
    const workerMap = JSON.parse(readFileSync(join(outDir, 'src/passwordEstimatorWorker.js.map'), 'utf8')) as {
      sources: string[];
    };
    expect(
      workerMap.sources.some((source) => source.endsWith('src/services/developer/domain/passwordEstimatorWorker.ts')),
    ).toBe(true);
    expect(workerMap.sources.filter((source) => source.includes('node_modules/@zxcvbn-ts/'))).toEqual([]);
  });

  it('changes no package’s text and resolves each package’s own imports as esbuild alone would', async () => {
    expect(await packagesTouched(BUNDLE_PLUGINS, { entryPoints: [join(projectRoot, 'src/main.ts')] })).toEqual([]);
    // The check sees a plugin that rewrites a package's file, and one that sends a package's import elsewhere.
    const rewrites: Plugin = {
      name: 'rewrites',
      setup: (build) =>
        build.onLoad({ filter: /\/node_modules\/statuses\/index\.js$/ }, () => ({ contents: 'module.exports = {}' })),
    };
    const redirects: Plugin = {
      name: 'redirects',
      setup: (build) =>
        build.onResolve({ filter: /^statuses$/ }, (args) =>
          args.importer.includes('/node_modules/')
            ? { path: join(projectRoot, 'node_modules/statuses/index.js') }
            : undefined,
        ),
    };
    const koa = { stdin: { contents: "import 'koa';", resolveDir: projectRoot } };
    expect((await packagesTouched([rewrites], koa)).some((touch) => /^loaded .*statuses\/index\.js$/.test(touch))).toBe(
      true,
    );
    expect((await packagesTouched([redirects], koa)).some((touch) => touch.startsWith('resolved statuses'))).toBe(true);
  });

  it('has every contract as JSON beside it, made from the YAML as it is now', () => {
    for (const name of CONTRACTS) {
      const compiled = JSON.parse(readFileSync(join(outDir, 'openapi', `${name}.json`), 'utf8')) as CompiledContract;
      expect(compiled).toEqual(compileContract(readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8')));
    }
  });

  it('starts in production mode and answers health, a profile, the docs and the dashboard page', async () => {
    // What the process has loaded when it stops: Node's own modules, and the packages read with `require` from node_modules.
    const probe = join(outDir, 'probe.mjs');
    const loaded = join(outDir, 'loaded.json');
    writeFileSync(
      probe,
      `import { createRequire } from 'node:module'; import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(${JSON.stringify(loaded)}, JSON.stringify([...process.moduleLoadList, ...Object.keys(createRequire(import.meta.url).cache)])));`,
    );
    server = await startProcess(
      {
        NODE_ENV: 'production',
        MAIL_TO_LOG: 'true',
        COUNTER_KEY_SECRET: 'a production secret of at least 32 characters',
        DATABASE_URL: 'sqlite::memory:',
        NODE_OPTIONS: `--import ${probe}`,
      },
      { main: join(outDir, 'src/main.js') },
    );
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const profile = await call(`${server.base}/v3/profiles/alex`);
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ display_name: 'Alex Morgan' });
    // The contracts were read from openapi/ and the built pages from dist/, relative to the project root.
    expect((await fetch(`${server.base}/docs/profiles`)).status).toBe(200);
    expect((await fetch(`${server.base}/developers`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(server.lines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    // Nothing of it needed sanitize-html or busboy (docs/decisions/lazy-packages.md). (Node's fetch, undici, is loaded
    // by Koa's `instanceof Response` at the first answer whose body is an object, `/healthz`'s: a cost accepted there.)
    const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    expect(modules.some((module) => module.includes('http'))).toBe(true);
    expect(modules.filter((module) => /node_modules\/(sanitize-html|busboy)\//.test(module))).toEqual([]);
  });

  it('serves every service from the bundle, with what it loads only when first needed (images, password checks, a token)', async () => {
    const databaseUrl = `sqlite:${join(outDir, 'services.db')}`;
    server = await startProcess(
      {
        NODE_ENV: 'production',
        MAIL_TO_LOG: 'true',
        COUNTER_KEY_SECRET: 'a production secret of at least 32 characters',
        DATABASE_URL: databaseUrl,
      },
      { main: join(outDir, 'src/main.js') },
    );
    // An avatar drawn by sharp (a native addon outside the bundle).
    const avatar = await call(`${server.base}/avatar/${'0'.repeat(64)}?d=identicon&s=32`);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/png');
    // A sign-up on the dashboard: its password is checked against the dictionaries, loaded on first use.
    const base = `${server.base}/developer/v1`;
    const weak = await call(`${base}/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.base },
      body: JSON.stringify({ email: 'bundle@example.com', password: 'password1' }),
    });
    expect(weak.status).toBe(400);
    const signUp = await call(`${base}/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.base },
      body: JSON.stringify({ email: 'bundle@example.com', password: 'violet tractor umbrella 42' }),
    });
    expect(signUp.status).toBe(202);
    // Mail goes to the log only because MAIL_TO_LOG says so; no answer in production says a link is there.
    expect(((await signUp.json()) as { message: string }).message).not.toMatch(/SMTP_URL|server log/);
    // A restore on publishing, with a token the bundled command line issued into the same store.
    const issued = await promisify(execFile)(
      process.execPath,
      [join(outDir, 'src/admin/cli.js'), 'tokens', 'create', '--user', 'admin'],
      {
        cwd: projectRoot,
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      },
    );
    const token = lastLine(issued.stdout);
    const restored = await call(`${server.base}/rest/v1.1/sites/1/posts/101/restore`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ ID: 101, status: 'publish' });
    expect(await server.stop()).toBe(0);
  });
});

/**
 * What the plugins did to packages while bundling `entry`: each file inside node_modules whose text a plugin gave
 * (`loaded <path>`), and each import made from inside node_modules that a plugin resolved (`resolved <name> from <importer>`).
 */
async function packagesTouched(plugins: readonly Plugin[], entry: BuildOptions): Promise<string[]> {
  const touched: string[] = [];
  const inPackage = (path: string) => path.includes('/node_modules/');
  const watched = plugins.map(
    (plugin): Plugin => ({
      name: plugin.name,
      setup: (pluginBuild) =>
        plugin.setup({
          ...pluginBuild,
          onLoad: (options, callback) =>
            pluginBuild.onLoad(options, async (args) => {
              const result = await callback(args);
              if (result?.contents !== undefined && inPackage(args.path)) touched.push(`loaded ${args.path}`);
              return result;
            }),
          onResolve: (options, callback) =>
            pluginBuild.onResolve(options, async (args) => {
              const result = await callback(args);
              if (result && inPackage(args.importer)) touched.push(`resolved ${args.path} from ${args.importer}`);
              return result;
            }),
        } satisfies PluginBuild),
    }),
  );
  await build({
    ...entry,
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    external: ['better-sqlite3', 'sharp'],
    plugins: watched,
    logLevel: 'silent',
  });
  return touched;
}
