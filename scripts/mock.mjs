/**
 * `npm run mock`: every contract `openapi/<name>.yaml` mocked by Prism on
 * production's paths (`/v3/...`, `/avatar/...`, `/rest/v1.1/...`,
 * `/developer/v1/...`) at one origin, `http://127.0.0.1:4010` by default
 * (`MOCK_PORT`, `MOCK_HOST`). A front end points at it with the paths it
 * uses in production.
 *
 * Prism's HTTP server runs in this process on every contract merged into
 * one document, from what `scripts/build-mock.ts` built into `dist/mock/`
 * (rebuilt through tsx only when a contract, the build or the lock file
 * changed; plain JavaScript, so a start with nothing changed loads no
 * TypeScript tool). In front of it, a layer (`scripts/mock/front.ts`,
 * bundled into `dist/mock/front.mjs` with the server's code it shares)
 * answers what the server would where the answer is a function of the
 * request: CORS by the server's settings (`MOCK_CORS=open`: any origin),
 * publishing's `fields`, `http_envelope`, `pretty` and `callback`, live
 * rate-limit headers, `X-Request-Id`, `304` after `If-None-Match`, avatars
 * at the size asked, the API's `404` and `405`, a contract's
 * `x-endpoint-layer` rules, a post list paged as the server pages it, and
 * the examples' links and avatar URLs at the mock's own origin. The examples are Prism's: `Prefer: code=404`,
 * `Prefer: example=<name>`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILD_INPUTS, BUILD_STAMPS, isFresh } from './fresh.mjs';
import { stopWithParent } from './stop-with-parent.mjs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.MOCK_PORT ?? 4010);
const host = process.env.MOCK_HOST ?? '127.0.0.1';
const built = join(projectRoot, 'dist/mock');

if (!isFresh(BUILD_STAMPS.mock, BUILD_INPUTS.mock)) {
  const build = spawnSync(join(projectRoot, 'node_modules/.bin/tsx'), [join(projectRoot, 'scripts/build-mock.ts')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** Prism's log lines (JSON) as one plain line each on stderr, from warnings up, as `prism mock -v warn` shows them. */
const prismLog = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      try {
        const { msg } = JSON.parse(line);
        process.stderr.write(`prism: ${msg}\n`);
      } catch {
        process.stderr.write(`prism: ${line}\n`);
      }
    }
    done();
  },
});

/** Starts Prism's HTTP server on a port of its own on the loopback, as `prism mock` configures it; resolves with its address. */
async function startPrism() {
  const { createServer: createPrismServer, createLogger } = createRequire(import.meta.url)(join(built, 'prism.cjs'));
  const operations = JSON.parse(readFileSync(join(built, 'operations.json'), 'utf8'));
  const prism = createPrismServer(operations, {
    // CORS is the front layer's, as the server does it (scripts/mock/front.ts).
    cors: false,
    config: {
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: false,
      upstreamProxy: undefined,
      mock: { dynamic: false, ignoreExamples: false, seed: null },
      isProxy: false,
    },
    components: { logger: createLogger('HTTP SERVER', { level: 'warn' }, prismLog) },
  });
  // Port 0: the system picks a free port, so mocks started together never collide.
  const address = await prism.listen(0, '127.0.0.1');
  return { base: address, stop: () => prism.close() };
}

const prism = await startPrism();
const prismUrl = new URL(prism.base);

const { createFront } = await import(pathToFileURL(join(built, 'front.mjs')).href);
const layer = JSON.parse(readFileSync(join(built, 'layer.json'), 'utf8'));
// The origin a client on this machine reaches the mock at (the loopback for every interface), as the server's default `PUBLIC_URL`:
// the examples' links and avatar images are answered at it.
const reachable =
  host === '0.0.0.0' || host === '::' || host === '[::]'
    ? '127.0.0.1'
    : host.includes(':') && !host.startsWith('[')
      ? `[${host}]`
      : host;
const server = createServer(
  createFront({ projectRoot, layer, prism: prismUrl, env: process.env, origin: `http://${reachable}:${port}` }),
);
const contracts = readdirSync(join(projectRoot, 'openapi'))
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => file.slice(0, -'.yaml'.length))
  .sort();
server.listen(port, host, () => {
  console.log(
    `mock of ${contracts.join(', ')} on production's paths: http://${host}:${port} (e.g. http://${host}:${port}/v3/profiles/alex)`,
  );
});
const stop = () => {
  prism.stop();
  server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// Left by a parent that went without passing a signal on (a shell npm ran this under): the mock stops too.
stopWithParent(stop);
