// @store-independent
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_SCOPE } from '../../scripts/build-sdk.js';
import { projectRoot } from '../../scripts/tools.js';
import { installSdk } from '../support/sdk.js';

/**
 * The SDK examples of the README and of docs/ compile as a client project
 * compiles them: every TypeScript block that imports one of the packages is
 * written into a project that installed the packed packages (offline), and
 * type-checked strictly with the repository's tsc. The names an example uses
 * without defining them (`token`, `process`) are declared for it.
 */
const exec = promisify(execFile);
const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/** The Markdown files whose examples are compiled: the README and every page of docs/. */
const pages = [
  'README.md',
  ...readdirSync(join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

/** Every fenced `ts` block of a page that imports one of the packages, its indentation removed. */
function examplesOf(page: string): string[] {
  const text = readFileSync(join(projectRoot, page), 'utf8');
  return [...text.matchAll(/^([ \t]*)```ts\n([\s\S]*?)^[ \t]*```/gm)]
    .map(([, indent, code]) =>
      code!
        .split('\n')
        .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
        .join('\n'),
    )
    .filter((code) => code.includes(`${SDK_SCOPE}/`));
}

const examples = pages.flatMap((page) => examplesOf(page).map((code, at) => ({ page, at, code })));

/** The functions a module exports as `export const`, sorted. */
const exportedConsts = (...path: string[]): string[] =>
  [...readFileSync(join(projectRoot, ...path), 'utf8').matchAll(/^export const (\w+)/gm)]
    .map(([, name]) => name!)
    .sort();

/** The publishing operations the package types by their options (`sdk/publishing.ts`). */
const typed = exportedConsts('sdk', 'publishing.ts');

/** What an example may use without defining it: a token, and Node's environment. */
const DECLARED = 'declare const token: string;\ndeclare const process: { env: Record<string, string | undefined> };\n';

/**
 * What must not compile: a field not picked, a list's post of every field read as optional; an upload's attribute the
 * contract does not name, a file that is not a Blob, a list of files where v1.2's edit takes one; for every other
 * operation, the envelope's keys read on its body and the body's on its envelope, a site's key not picked or read as
 * present from a list known only at run time, a term list's terms under another key, options an operation does not take.
 */
const REFUSED = `
import * as wp from '${SDK_SCOPE}/publishing';
const client = wp.createClient({ auth: token });
const picked = await wp.listPosts({ client, path: { site: 'demo.example.com' }, query: { fields: 'ID,title' } });
if (picked.ok) {
  // @ts-expect-error: the status was not asked for
  void picked.data.posts[0]!.status;
}
const full = await wp.listPosts({ client, path: { site: 'demo.example.com' } });
// @ts-expect-error: data is undefined until the answer is known to be a success
void full.data.posts;
if (full.ok) {
  const id: number = full.data.posts[0]!.ID;
  void id;
}
const library = { site: 'demo.example.com' };
// @ts-expect-error: no attribute 'titel'
await wp.uploadMedia({ client, path: library, body: { attrs: [{ titel: 'Harbour' }] } });
// @ts-expect-error: a file is a Blob (or a File), not its name
await wp.uploadMedia({ client, path: library, body: { media: ['harbour.png'] } });
// @ts-expect-error: a Blob's name goes beside it as filename
await wp.uploadMedia({ client, path: library, body: { media: [{ file: new Blob([]), name: 'harbour.png' }] } });
// @ts-expect-error: v1.2's edit replaces the file with one file
await wp.editMediaV12({ client, path: { ...library, media_ID: 1 }, body: { media: [new Blob([])] } });
const uploaded = await wp.uploadMedia({ client, path: library, body: { media: [new Blob([])], attrs: [{ parent_id: 108 }] } });
// @ts-expect-error: data is undefined until the answer is known to be a success
void uploaded.data.media;
if (uploaded.ok) {
  const ids: number[] = uploaded.data.media.map((item) => item.ID);
  // @ts-expect-error: without http_envelope the answer is the body, not the envelope
  void uploaded.data.code;
  void ids;
}
const site = 'demo.example.com';
const at = { site, post_ID: 108 };
// @ts-expect-error: a post's path is required
await wp.getPost();
// @ts-expect-error: the path names the post post_ID
await wp.getPost({ client, path: { site, post_id: 108 } });
// @ts-expect-error: no query parameter 'feilds'
await wp.getPost({ client, path: at, query: { feilds: 'ID' } });
// @ts-expect-error: no post field 'titel'
await wp.createPost({ client, path: { site }, body: { titel: 'Hello' } });
const named = await wp.getSite({ client, path: { site }, query: { fields: 'ID,name' } });
if (named.ok) {
  // @ts-expect-error: the URL was not asked for
  void named.data.URL;
}
const sites = await wp.getMySitesV12({ client, query: { fields: 'ID,name' } });
if (sites.ok) {
  const named: { ID: number; name: string }[] = sites.data.sites;
  // @ts-expect-error: the URL was not asked for
  void sites.data.sites[0]!.URL;
  void named;
}
const anySites = await wp.getMySites({ client, query: { fields: String(process.env.FIELDS) } });
if (anySites.ok) {
  // @ts-expect-error: a list of fields known only at run time may leave out any key
  const url: string = anySites.data.sites[0]!.URL;
  void url;
}
const counts = await wp.getPostCountsV12({ client, path: { site, post_type: 'post' } });
if (counts.ok) {
  // @ts-expect-error: without http_envelope the answer is the body
  void counts.data.code;
}
const countsEnveloped = await wp.getPostCountsV12({ client, path: { site, post_type: 'post' }, query: { http_envelope: true } });
if (countsEnveloped.ok) {
  // @ts-expect-error: with http_envelope the counts are inside the envelope's body
  void countsEnveloped.data.counts;
}
const likes = await wp.getPostLikesV12({ client, path: at, query: { http_envelope: '1' } });
if (likes.ok) {
  // @ts-expect-error: with http_envelope the likes are inside the envelope's body
  void likes.data.found;
}
const taxonomies = await wp.listPostTypeTaxonomies({ client, path: { site, post_type: 'post' } });
if (taxonomies.ok) {
  // @ts-expect-error: without http_envelope the answer is the body
  void taxonomies.data.code;
}
const taxonomy = { site, taxonomy: 'category' };
const terms = await wp.listTaxonomyTerms({ client, path: taxonomy });
if (terms.ok) {
  // @ts-expect-error: a taxonomy's terms are under terms, not categories
  void terms.data.categories;
}
const categories = await wp.listCategories({ client, path: { site } });
if (categories.ok) {
  // @ts-expect-error: the categories list answers under categories, not terms
  void categories.data.terms;
}
const created = await wp.createTaxonomyTerm({ client, path: taxonomy, body: { name: 'Harbour' } });
if (created.ok) {
  // @ts-expect-error: without http_envelope the answer is the term
  void created.data.code;
}
const read = await wp.getTaxonomyTerm({ client, path: { ...taxonomy, term_slug: 'harbour' }, query: { http_envelope: true } });
if (read.ok) {
  // @ts-expect-error: with http_envelope the term is inside the envelope's body
  void read.data.slug;
}
const edited = await wp.updateTaxonomyTerm({ client, path: { ...taxonomy, term_slug: 'harbour' }, body: { name: 'Port' } });
if (edited.ok) {
  // @ts-expect-error: without http_envelope the answer is the term
  void edited.data.body;
}
const deleted = await wp.deleteTaxonomyTerm({ client, path: { ...taxonomy, term_slug: 'port' } });
if (deleted.ok) {
  // @ts-expect-error: this delete answers success as a boolean, not the categories' 'true'
  const success: 'true' = deleted.data.success;
  void success;
}
const diffs = await wp.getPageDiffs({ client, path: { site, post_ID: 2 } });
if (diffs.ok) {
  // @ts-expect-error: without http_envelope the answer is the body
  void diffs.data.code;
}
const file = { site_ID: 1, folder: '0123456789abcdef', file: 'harbour.png' };
// @ts-expect-error: a media file takes no http_envelope
await wp.getMediaFile({ client, path: file, query: { http_envelope: true } });
const bytes = await wp.getMediaFile({ client, path: file });
if (bytes.ok) {
  // @ts-expect-error: a file's answer is a Blob, not JSON
  void bytes.data.code;
}
// @ts-expect-error: JSONP is for script tags, not this client
await wp.getOpenApiDocument({ client, query: { callback: 'show' } });
const contract = await wp.getOpenApiDocument({ client, query: { http_envelope: true } });
if (contract.ok) {
  // @ts-expect-error: the contract declares any object here, its envelope too: no key is known to be a number
  const code: number = contract.data.code;
  void code;
}
`;

let consumer: string;
beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), 'sdk-docs-examples-'));
  await installSdk(consumer, { name: 'docs-examples', private: true, type: 'module' });
}, 180_000);
afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

describe('the SDK examples of the README and docs/', () => {
  it('type every publishing operation: sdk/publishing.ts wraps each function of the generated SDK, and nothing else', () => {
    // hey-api's own function of an operation answers the union of its body and its envelope: one left unwrapped is untyped.
    expect(typed).toEqual(exportedConsts('generated', 'publishing', 'sdk.gen.ts'));
  });

  it('are there: the README’s, and one for every publishing operation the package types by its options', () => {
    expect(examples.filter((example) => example.page === 'README.md')).not.toEqual([]);
    expect(typed.length).toBeGreaterThan(30);
    const all = examples.map((example) => example.code).join('\n');
    expect(typed.filter((name) => !new RegExp(`\\b${name}\\(`).test(all))).toEqual([]);
  });

  it('type-check strictly against the packed packages, and what must not compile does not', async () => {
    const folder = join(consumer, 'examples');
    mkdirSync(folder, { recursive: true });
    for (const { page, at, code } of examples) {
      const name = `${page.replace(/[/.]/g, '-')}-${at}.ts`;
      writeFileSync(join(folder, name), `// ${page}, example ${at + 1}\n${DECLARED}${code}\nexport {};\n`);
    }
    writeFileSync(join(folder, 'refused.ts'), `${DECLARED}${REFUSED}\nexport {};\n`);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
          // The packages' declarations are sdk-packages' to check, and TypeScript's own lib files are not ours: the examples are.
          skipLibCheck: true,
        },
        include: ['examples/*.ts'],
      }),
    );
    const compiled = await exec(process.execPath, [tsc, '-p', consumer]).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(compiled).toBe('');
  }, 120_000);
});
