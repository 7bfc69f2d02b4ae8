// @store-independent
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmEnv, SDK_SCOPE } from '../../scripts/build-sdk.js';
import { projectRoot } from '../../scripts/tools.js';
import { packedSdk } from '../support/sdk.js';

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

/** What an example may use without defining it: a token, and Node's environment. */
const DECLARED = 'declare const token: string;\ndeclare const process: { env: Record<string, string | undefined> };\n';

/**
 * What must not compile: a field not picked, a list's post of every field read as optional; an upload's attribute the
 * contract does not name, a file that is not a Blob, a list of files where v1.2's edit takes one.
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
`;

let consumer: string;
beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), 'sdk-docs-examples-'));
  const tarballs = await packedSdk();
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'docs-examples', private: true, type: 'module' }),
  );
  await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], { cwd: consumer, env: npmEnv });
}, 180_000);
afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

describe('the SDK examples of the README and docs/', () => {
  it('are there: the README’s, and one for every publishing operation the package types by its options', () => {
    expect(examples.filter((example) => example.page === 'README.md')).not.toEqual([]);
    const typed = [...readFileSync(join(projectRoot, 'sdk', 'publishing.ts'), 'utf8').matchAll(/^export const (\w+)/gm)]
      .map(([, name]) => name!)
      .sort();
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
