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
 * TypeScript tool). In front of it, a small layer does what Prism cannot
 * and the contracts say: a 200 `image/png` answer is the bytes of the
 * operation's `externalValue` example (Prism would send the example's
 * text), and a contract's `x-endpoint-layer` rules apply (an integer path
 * parameter that is not digits matches no route: `404` with an empty body,
 * as the server answers; a trailing slash is accepted; `OPTIONS` is `200`).
 * Everything else is Prism's: `Prefer: code=404`, `Prefer: example=<name>`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { BUILD_INPUTS, BUILD_STAMPS, isFresh } from './fresh.mjs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.MOCK_PORT ?? 4010);
const host = process.env.MOCK_HOST ?? '127.0.0.1';
const built = join(projectRoot, 'dist/mock');

if (!isFresh(BUILD_STAMPS.mock, BUILD_INPUTS.mock)) {
  const build = spawnSync(join(projectRoot, 'node_modules/.bin/tsx'), [join(projectRoot, 'scripts/build-mock.ts')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** @type {{ pattern: RegExp, integerSegments: number[], endpointLayer?: { acceptsTrailingSlash?: boolean, answersOptions?: boolean }, png?: Buffer }[]} */
const paths = JSON.parse(readFileSync(join(built, 'layer.json'), 'utf8')).map((path) => ({
  ...path,
  pattern: new RegExp(path.pattern),
  png: path.png ? readFileSync(join(projectRoot, path.png)) : undefined,
}));

/**
 * CORS headers of the answers the front layer writes itself, as Prism writes
 * them on its own: any origin, and a preflight allowed the method and
 * headers it asks for (a front end on another origin sends `Authorization`).
 */
function corsOf(req) {
  if (!req.headers.origin) return {};
  const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'];
  return {
    'Access-Control-Allow-Origin': '*',
    ...(preflight && {
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': String(req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type'),
      'Access-Control-Max-Age': '7200',
    }),
  };
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
    cors: true,
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

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://mock');
  let pathname = url.pathname;
  const byShape = (candidate) => paths.find((path) => path.pattern.test(candidate));
  let known = byShape(pathname);
  if (!known && pathname.length > 1 && pathname.endsWith('/')) {
    const trimmed = pathname.replace(/\/+$/, '');
    const candidate = byShape(trimmed);
    if (candidate?.endpointLayer?.acceptsTrailingSlash) {
      known = candidate;
      pathname = trimmed;
    }
  }
  if (known?.endpointLayer) {
    const segments = pathname.split('/');
    const noRoute = known.integerSegments.some((index) => !/^\d+$/.test(segments[index] ?? ''));
    if (noRoute || (req.method === 'OPTIONS' && known.endpointLayer.answersOptions)) {
      res.writeHead(noRoute ? 404 : 200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '0', ...corsOf(req) }).end();
      req.resume();
      return;
    }
  }
  const upstream = request(
    { host: prismUrl.hostname, port: prismUrl.port, method: req.method, path: `${pathname}${url.search}`, headers: req.headers },
    (answer) => {
      const png = known?.png && answer.statusCode === 200 && String(answer.headers['content-type']).startsWith('image/png') ? known.png : undefined;
      if (!png) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      answer.resume();
      res.writeHead(200, { ...answer.headers, 'content-length': String(png.length) }).end(png);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
const contracts = readdirSync(join(projectRoot, 'openapi')).filter((file) => file.endsWith('.yaml')).map((file) => file.slice(0, -'.yaml'.length)).sort();
server.listen(port, host, () => {
  console.log(`mock of ${contracts.join(', ')} on production's paths: http://${host}:${port} (e.g. http://${host}:${port}/v3/profiles/alex)`);
});
const stop = () => {
  prism.stop();
  server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
