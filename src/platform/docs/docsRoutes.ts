import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Context, Middleware } from 'koa';
import type jsYamlModule from 'js-yaml';
import { onFirstUse } from '../onFirstUse.js';
import { expandedServerUrl, requestOrigin, serverOrigin, servingBase, type ServerObject } from './servedContract.js';

const jsYaml = onFirstUse<typeof jsYamlModule>('js-yaml');

/** A document as YAML: long lines kept whole, no anchors for repeated objects. js-yaml is loaded when a YAML is first asked for. */
function dumpYaml(document: unknown): string {
  return jsYaml().dump(document, { lineWidth: -1, noRefs: true });
}

/**
 * The API docs that `npm run docs` builds into dist/docs/ (scripts/build-docs.ts),
 * for each served service:
 *
 *   /docs/<name>                 the reference page (Scalar renders it: try-it console, code samples)
 *   /docs/<name>/openapi.json    the contract to download, and its YAML: servers at this
 *   /docs/<name>/openapi.yaml    deployment's address, with SDK samples (`x-codeSamples`)
 *   /docs/<name>/reference.json  the same as the page renders it (see `forRenderer`)
 *   /docs/<name>/changelog       the contract's changes since its last release
 *   /docs/<name>/examples/<f>    example files the contract names (`externalValue`)
 *   /docs/assets/<path>          Scalar's bundle, the pages' stylesheet and script
 */

/**
 * The reference page's policy. Script: only the files under /docs/assets/
 * of this origin (Scalar's bundle, loaded as ES modules, and the page's own
 * web/docs/docs.js), named by URL, not `'self'`, which would let any answer
 * of this origin that is valid JavaScript (a JSONP answer of the publishing
 * API) run as script on the page; no inline script. (A redirect would
 * escape the path, so nothing under /docs/assets/ ever redirects.) What
 * Scalar needs beyond that: `style-src 'unsafe-inline'`, since it writes
 * its stylesheet and theme into `<style>` elements at run time; `img-src
 * data: blob:` for its icons and for an image answer in the try-it console
 * (an avatar); `connect-src` this origin (the document, the try-it calls)
 * and `PUBLIC_URL`'s when set, since the served contract names it.
 */
function referencePolicy(origin: string | undefined, publicOrigin: string | undefined): string {
  const connect = publicOrigin ? `'self' ${publicOrigin}` : "'self'";
  return (
    `default-src 'none'; script-src ${origin ? `${origin}/docs/assets/` : "'none'"}; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; ` +
    `font-src 'self' data:; connect-src ${connect}; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`
  );
}

/** The changelog page runs no script at all. */
const CHANGELOG_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers of every docs page: no framing, no sniffing, and no referrer (a reader types keys into the try-it console). */
const PAGE_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
// No SVG: opened as a page of this origin, it could run script.
const EXAMPLE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.json': 'application/json',
};
/** One path segment of a built file: no `..`, no separators, nothing to escape. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

type Document = { servers?: ServerObject[]; paths?: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/** Every example file (`externalValue`) named by its absolute URL: a relative one would be read against the page, not the document. */
function absoluteExternalValues(value: unknown, documentUrl: string): unknown {
  if (Array.isArray(value)) return value.map((item) => absoluteExternalValues(item, documentUrl));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === 'externalValue' && typeof item === 'string'
        ? new URL(item, documentUrl).href
        : absoluteExternalValues(item, documentUrl),
    ]),
  );
}

/**
 * The docs document as served at `base` from `documentPath`: every server
 * (the document's, a path's, an operation's) with its variables filled in
 * and moved from the written origin to `base` (so the reference shows and
 * calls this deployment, not `{base_url}`), and so the SDK samples'
 * `baseUrl`; example files at their URL under `base`.
 */
export function documentAt(source: Document, base: string, documentPath: string): Document {
  const document = absoluteExternalValues(source, `${base}${documentPath}`) as Document;
  const first = document.servers?.[0];
  if (!first) return document;
  const written = serverOrigin(first);
  const moveUrl = (url: string) => (url.startsWith(written) ? `${base}${url.slice(written.length)}` : url);
  const move = (servers: ServerObject[] | undefined) =>
    servers?.map(({ variables: _variables, ...server }) => ({
      ...server,
      url: moveUrl(expandedServerUrl({ ...server, variables: _variables })),
    }));
  const moveOperation = (operation: Record<string, unknown>) => {
    const samples = operation['x-codeSamples'] as { source: string }[] | undefined;
    return {
      ...operation,
      ...(operation.servers ? { servers: move(operation.servers as ServerObject[]) } : {}),
      ...(samples
        ? { 'x-codeSamples': samples.map((sample) => ({ ...sample, source: sample.source.replaceAll(written, base) })) }
        : {}),
    };
  };
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, value]) =>
          key === 'servers'
            ? [key, move(value as ServerObject[])]
            : value && typeof value === 'object' && !Array.isArray(value) && key !== 'parameters'
              ? [key, moveOperation(value as Record<string, unknown>)]
              : [key, value],
        ),
      ),
    ]),
  );
  return { ...document, servers: move(document.servers), paths };
}

/** Media types whose example files Scalar can show (it parses JSON and YAML); others' it reports as failing to load. */
const SHOWN_EXAMPLE_FILES = /json|yaml|^text\//;

/**
 * The document as the reference page renders it; the downloads keep what
 * this changes. Servers of a path item are written into its operations,
 * where Scalar's try-it console looks for them (it would call the
 * document's server). Examples that are files Scalar cannot show (an
 * image) keep their summary and lose the file, so the page does not fetch
 * them to say it could not load them.
 */
function forRenderer(document: Document): Document {
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => {
      const servers = item.servers;
      if (!servers) return [path, item];
      const withServers = Object.entries(item).map(([key, value]) =>
        METHODS.has(key) && value && typeof value === 'object' && !('servers' in value)
          ? [key, { ...value, servers }]
          : [key, value],
      );
      return [path, Object.fromEntries(withServers)];
    }),
  );
  return withoutExampleFiles({ ...document, paths }) as Document;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function withoutExampleFiles(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExampleFiles);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key !== 'content' || !item || typeof item !== 'object') return [key, withoutExampleFiles(item)];
      const content = Object.entries(
        item as Record<string, { examples?: Record<string, Record<string, unknown>> }>,
      ).map(([type, media]) => {
        if (SHOWN_EXAMPLE_FILES.test(type) || !media?.examples) return [type, withoutExampleFiles(media)];
        const examples = Object.fromEntries(
          Object.entries(media.examples).map(([exampleName, example]) => {
            const { externalValue: _file, ...rest } = example;
            return [exampleName, rest];
          }),
        );
        return [type, { ...media, examples }];
      });
      return [key, Object.fromEntries(content)];
    }),
  );
}

interface BuiltDocument {
  mtimeMs: number;
  document: Document;
  /** The document at each recently seen base (a few: `PUBLIC_URL`, or the origins a request named). */
  atBase: Map<string, Variant>;
}
const BASES_KEPT = 4;

/** One document at one base: for download (JSON, and YAML made when first asked), and as the page renders it. */
interface Variant {
  document: Document;
  json: string;
  yaml?: string;
  reference?: string;
}

export function docsRoutes(docsDir: string, services: readonly string[]): Middleware {
  const served = new Set(services);
  const documents = new Map<string, BuiltDocument>();

  const documentFor = async (name: string, base: string) => {
    const file = join(docsDir, `${name}.json`);
    const { mtimeMs } = await stat(file);
    let built = documents.get(file);
    if (built?.mtimeMs !== mtimeMs) {
      built = { mtimeMs, document: JSON.parse(await readFile(file, 'utf8')) as Document, atBase: new Map() };
      documents.set(file, built);
    }
    let variant = built.atBase.get(base);
    if (!variant) {
      if (built.atBase.size >= BASES_KEPT) built.atBase.delete(built.atBase.keys().next().value!);
      const document = documentAt(built.document, base, `/docs/${name}/openapi.json`);
      variant = { document, json: JSON.stringify(document) };
      built.atBase.set(base, variant);
    }
    return variant;
  };

  const send = (ctx: Context, body: Buffer | string, type: string, cacheControl: string) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', cacheControl);
    ctx.type = type;
    ctx.body = body;
  };

  /** A built file, or a 404 that says how to build it. */
  const builtFile = async (ctx: Context, file: string): Promise<Buffer | undefined> => {
    try {
      return await readFile(join(docsDir, file));
    } catch {
      ctx.status = 404;
      ctx.body = { error: 'Docs not built: run `npm run docs`', code: 'not_found' };
      return undefined;
    }
  };

  /** A file under dist/docs/assets/: named by content or version, so cached for good; the gzipped copy when the reader takes it. */
  const asset = async (ctx: Context, segments: string[]) => {
    const type = ASSET_TYPES[extname(segments.at(-1) ?? '')];
    if (!type || !segments.every((segment) => SEGMENT.test(segment))) return false;
    const file = join(docsDir, 'assets', ...segments);
    const gzipped =
      ctx.acceptsEncodings('gzip', 'identity') === 'gzip'
        ? await readFile(`${file}.gz`).catch(() => undefined)
        : undefined;
    const bytes = gzipped ?? (await readFile(file).catch(() => undefined));
    if (!bytes) return false;
    ctx.vary('Accept-Encoding');
    if (gzipped) ctx.set('Content-Encoding', 'gzip');
    send(ctx, bytes, type, 'public, max-age=31536000, immutable');
    return true;
  };

  return async (ctx, next) => {
    if (!ctx.path.startsWith('/docs/') || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const [first, ...rest] = ctx.path.slice('/docs/'.length).replace(/\/$/, '').split('/');
    if (first === 'assets') return (await asset(ctx, rest)) ? undefined : next();
    if (!first || !served.has(first)) return next();
    const name = first;
    const sub = rest.join('/');

    if (sub === '') {
      const html = await builtFile(ctx, `${name}.html`);
      if (!html) return;
      const publicUrl = (ctx as Context & { publicUrl?: string }).publicUrl;
      ctx.set(PAGE_HEADERS);
      // PUBLIC_URL's origin when set; else this origin as the browser sees it, only when it is a plain host
      // (a Host header that is not names no script, so the page does not run rather than trust it).
      const origin = publicUrl ? new URL(publicUrl).origin : requestOrigin(ctx);
      if (!publicUrl) ctx.vary('Host');
      ctx.set('Content-Security-Policy', referencePolicy(origin, publicUrl && new URL(publicUrl).origin));
      return send(ctx, html, 'text/html; charset=utf-8', 'no-cache');
    }
    if (sub === 'changelog') {
      const html = await builtFile(ctx, `${name}.changelog.html`);
      if (!html) return;
      ctx.set(PAGE_HEADERS);
      ctx.set('Content-Security-Policy', CHANGELOG_POLICY);
      return send(ctx, html, 'text/html; charset=utf-8', 'no-cache');
    }
    if (sub === 'openapi.json' || sub === 'openapi.yaml' || sub === 'reference.json') {
      let variant: Variant;
      try {
        variant = await documentFor(name, servingBase(ctx));
      } catch {
        ctx.status = 404;
        ctx.body = { error: 'Docs not built: run `npm run docs`', code: 'not_found' };
        return;
      }
      // The address in it depends on the Host the request named (unless PUBLIC_URL is set): not cached for long.
      if (sub === 'openapi.json') return send(ctx, variant.json, 'application/json; charset=utf-8', 'no-cache');
      if (sub === 'reference.json') {
        variant.reference ??= JSON.stringify(forRenderer(variant.document));
        return send(ctx, variant.reference, 'application/json; charset=utf-8', 'no-cache');
      }
      variant.yaml ??= dumpYaml(variant.document);
      return send(ctx, variant.yaml, 'application/yaml; charset=utf-8', 'no-cache');
    }
    const example = /^examples\/([^/]+)$/.exec(sub)?.[1];
    const exampleType = example && SEGMENT.test(example) ? EXAMPLE_TYPES[extname(example)] : undefined;
    if (example && exampleType) {
      const bytes = await readFile(join(docsDir, 'examples', example)).catch(() => undefined);
      if (bytes) return send(ctx, bytes, exampleType, 'public, max-age=300');
    }
    return next();
  };
}
