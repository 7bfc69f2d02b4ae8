/**
 * `npm run mock`: every contract `openapi/<name>.yaml` mocked by Prism on
 * production's paths (`/v3/...`, `/avatar/...`, `/rest/v1.1/...`,
 * `/developer/v1/...`) at one origin, `http://127.0.0.1:4010` by default
 * (`MOCK_PORT`, `MOCK_HOST`). A front end points at it with the paths it
 * uses in production.
 *
 * One Prism process serves every contract, merged into one document
 * (`mergedAtOrigin`: each path under its server's path, components renamed
 * per service). In front of it, a small layer does what Prism cannot and
 * the contracts say: a 200 `image/png` answer is the bytes of the
 * operation's `externalValue` example (Prism would send the example's
 * text), and a contract's `x-endpoint-layer` rules apply (an integer path
 * parameter that is not digits matches no route: `404` with an empty body,
 * as the server answers; a trailing slash is accepted; `OPTIONS` is `200`).
 * Everything else is Prism's: `Prefer: code=404`, `Prefer: example=<name>`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { mergedAtOrigin, readContract, atOrigin } from './contracts.js';
import { CONTRACTS, freePort, projectRoot, quietToolEnv } from './tools.js';

const port = Number(process.env.MOCK_PORT ?? 4010);
const host = process.env.MOCK_HOST ?? '127.0.0.1';

/** What the front layer knows of each path: its pattern, its integer parameters' positions, its service's endpoint rules, its PNG example. */
interface MockPath {
  pattern: RegExp;
  integerSegments: number[];
  endpointLayer: { acceptsTrailingSlash?: boolean; answersOptions?: boolean } | undefined;
  png?: Buffer;
}

function mockPaths(): MockPath[] {
  const paths: MockPath[] = [];
  for (const name of CONTRACTS) {
    const contract = atOrigin(readContract(name));
    const endpointLayer = contract['x-endpoint-layer'] as MockPath['endpointLayer'];
    const parameters = (contract.components as { parameters?: Record<string, { name: string; in: string; schema?: { type?: string } }> })?.parameters ?? {};
    for (const [path, item] of Object.entries(contract.paths ?? {})) {
      const segments = path.split('/');
      const integerNames = new Set<string>();
      let png: Buffer | undefined;
      for (const operation of Object.values(item) as { parameters?: { $ref?: string; name?: string; in?: string; schema?: { type?: string } }[]; responses?: Record<string, unknown> }[]) {
        for (const parameter of operation?.parameters ?? []) {
          const resolved = parameter.$ref ? parameters[parameter.$ref.split('/').at(-1)!] : parameter;
          if (resolved?.in === 'path' && resolved.schema?.type === 'integer') integerNames.add(resolved.name!);
        }
        const examples = (operation?.responses?.['200'] as { content?: Record<string, { examples?: Record<string, { externalValue?: string }> }> } | undefined)
          ?.content?.['image/png']?.examples;
        const external = Object.values(examples ?? {}).find((example) => example.externalValue)?.externalValue;
        if (external) png = readFileSync(join(projectRoot, 'openapi', external));
      }
      paths.push({
        pattern: new RegExp(`^${segments.map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`),
        integerSegments: segments.flatMap((segment, index) => (integerNames.has(segment.slice(1, -1)) ? [index] : [])),
        endpointLayer,
        png,
      });
    }
  }
  return paths;
}

/**
 * CORS headers of the answers the front layer writes itself, as Prism writes
 * them on its own: any origin, and a preflight allowed the method and
 * headers it asks for (a front end on another origin sends `Authorization`).
 */
function corsOf(req: IncomingMessage): Record<string, string> {
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

/** Starts Prism on the merged contract; resolves with its address once it answers. */
async function startPrism(): Promise<{ base: string; stop: () => void }> {
  // One file per mock: Prism reloads when its file changes, so a second mock writing the same file would restart the first.
  const file = join(projectRoot, '.tmp', 'mock', `contracts-${process.pid}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(mergedAtOrigin(CONTRACTS)));
  const prismPort = await freePort();
  const child = spawn(join(projectRoot, 'node_modules/.bin/prism'), ['mock', '-v', 'warn', '-h', '127.0.0.1', '-p', String(prismPort), file], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: quietToolEnv,
  });
  const base = `http://127.0.0.1:${prismPort}`;
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    if (await fetch(`${base}/__health`).then(() => true, () => false)) return { base, stop: () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error('prism did not start');
}

const paths = mockPaths();
const prism = await startPrism();
const prismUrl = new URL(prism.base);

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://mock');
  let pathname = url.pathname;
  const byShape = (candidate: string) => paths.find((path) => path.pattern.test(candidate));
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
server.listen(port, host, () => {
  console.log(`mock of ${CONTRACTS.join(', ')} on production's paths: http://${host}:${port} (e.g. http://${host}:${port}/v3/profiles/alex)`);
});
const stop = () => {
  prism.stop();
  server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
