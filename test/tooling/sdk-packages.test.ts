import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_SCOPE } from '../../scripts/build-sdk.js';
import { CONTRACTS, projectRoot } from '../../scripts/tools.js';
import { issueCredential, publishingToken } from '../support/credentials.js';
import { installSdk, packedSdk } from '../support/sdk.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * `npm run build:sdk` as a client project meets it: the packages are built
 * and packed (once per test run, into the run's folder under `.tmp/`, so a
 * developer's dist/sdk is left alone: support/sdk.ts), installed offline into a project in the temp folder that has
 * no TypeScript and no file of this repository, and a strict program using
 * all three is type-checked with the repo's tsc (NodeNext, only the standard
 * fetch types), compiled, and run with node against a live server.
 */
const exec = promisify(execFile);
const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const ALEX_SHA256 = createHash('sha256').update('alex@example.com').digest('hex');

let scratch: string;
let consumer: string;
let server: TestServer;
let tarballs: string[];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'sdk-packages-'));
  consumer = join(scratch, 'consumer');
  mkdirSync(consumer);
  [tarballs, server] = await Promise.all([
    packedSdk(),
    startServer(),
    installSdk(consumer, { name: 'sdk-consumer', private: true, type: 'module' }),
  ]);
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The consumer's program: every value it needs is written into it, so it needs neither Node's types nor the environment. */
function program(values: { base: string; apiKey: string; token: string }): string {
  return `
import { avatarUrl, client as profiles, createClient, defaultBaseUrl, getAvatar, getProfileById, UnexpectedStatusError, type ProfilesError } from '${SDK_SCOPE}/profiles';
import { createClient as createPublishingClient, deletePost, getMySitesV12, getPostCountsV12, listTaxonomyTerms, restorePost, type Envelope, type ListEnvelope, type Post, type Term } from '${SDK_SCOPE}/publishing';
import { createClient as createDeveloperClient, getSession } from '${SDK_SCOPE}/developer';

const BASE = ${JSON.stringify(values.base)};
console.log('default', defaultBaseUrl, profiles.getConfig().baseUrl);

// The default client, pointed at this deployment; avatars come from the same configuration.
profiles.setConfig({ baseUrl: BASE + '/v3' });
const anonymous = await getProfileById({ path: { profileIdentifier: 'alex' } });
// @ts-expect-error: data is undefined unless the answer is a success, which nothing has checked yet (never run)
const unchecked = () => anonymous.data.display_name;
if (!anonymous.ok) throw new Error('anonymous lookup: ' + anonymous.status);
console.log('anonymous', anonymous.status, anonymous.data.display_name, 'links' in anonymous.data, typeof unchecked);

const keyed = await getProfileById({ client: createClient({ baseUrl: BASE + '/v3', auth: ${JSON.stringify(values.apiKey)} }), path: { profileIdentifier: 'alex' } });
if (keyed.status !== 200) throw new Error('keyed lookup: ' + keyed.status);
console.log('keyed', keyed.status, 'links' in keyed.data ? keyed.data.links.length : 'none');

const missing = await getProfileById({ path: { profileIdentifier: 'nobody-at-all' } });
if (missing.status === 404) {
  const error: ProfilesError = missing.error;
  const none: undefined = missing.data;
  // @ts-expect-error: a 404 has no data (never run)
  const notThere = () => missing.data.display_name;
  console.log('missing', missing.status, error.code, none, typeof notThere);
}

// A status the contract does not declare (a proxy's 502) is thrown, not typed.
const proxied = createClient({ fetch: async () => new Response('Bad Gateway', { status: 502 }) });
await getProfileById({ client: proxied, path: { profileIdentifier: 'alex' } }).catch((error: unknown) =>
  console.log('unexpected', error instanceof UnexpectedStatusError ? error.status : String(error)),
);

const avatar = await getAvatar({ path: { hash: ${JSON.stringify(ALEX_SHA256)} }, query: { s: 40 } });
if (!avatar.ok) throw new Error('avatar: ' + avatar.status);
const bytes = new Uint8Array(await avatar.data.arrayBuffer());
console.log('avatar', avatar.status, avatar.response.url.replace(BASE, ''), avatar.response.headers.get('content-type'), String.fromCharCode(...bytes.slice(1, 4)));

// The avatar URL of an email follows the default client's base URL too (no client named, no baseUrl given).
const src = avatarUrl('Alex@example.com', { s: 40 });
const image = src.startsWith(BASE) ? await fetch(src) : undefined;
console.log('avatarUrl', src.replace(BASE, ''), image?.status, image?.headers.get('content-type'));

const publishing = createPublishingClient({ baseUrl: BASE + '/rest/v1.1', auth: ${JSON.stringify(values.token)} });
const post = { site: 'demo.example.com', post_ID: 108 };
const trashed = await deletePost({ client: publishing, path: post });
if (!trashed.ok) throw new Error('trash: ' + trashed.status);
console.log('trashed', trashed.status, trashed.data.status);

const restored = await restorePost({ client: publishing, path: post, query: { fields: 'ID, status' } });
if (!restored.ok) throw new Error('restore: ' + restored.status);
const picked: { ID: number; status: Post['status'] } = restored.data;
// @ts-expect-error: the title was not asked for
void restored.data.title;
console.log('restored', restored.status, JSON.stringify(picked));

const full = await restorePost({ client: publishing, path: post });
if (full.ok) {
  const whole: Post = full.data;
  console.log('full', full.status, whole.title.length > 0, whole.status);
}

const enveloped = await restorePost({ client: publishing, path: { site: 'nowhere.example.com', post_ID: 1 }, query: { http_envelope: true } });
if (enveloped.ok) {
  const envelope: Envelope = enveloped.data;
  console.log('enveloped', enveloped.status, envelope.code);
}

// What the types narrow to is what the server answers: a taxonomy's terms under terms alone, sites picked, an envelope.
const terms = await listTaxonomyTerms({ client: publishing, path: { site: 'demo.example.com', taxonomy: 'category' } });
if (!terms.ok) throw new Error('terms: ' + terms.status);
const listed: Term[] = terms.data.terms;
console.log('terms', terms.status, Object.keys(terms.data).sort().join(','), listed.every((term) => typeof term.slug === 'string'));
const sites = await getMySitesV12({ client: publishing, query: { fields: 'ID, name' } });
if (!sites.ok) throw new Error('sites: ' + sites.status);
const named: { ID: number; name: string }[] = sites.data.sites;
console.log('sites', sites.status, named.length > 0 && named.every((site) => Object.keys(site).sort().join(',') === 'ID,name'));
const counted = await getPostCountsV12({ client: publishing, path: { site: 'demo.example.com', post_type: 'post' }, query: { http_envelope: 't' } });
if (counted.ok) {
  const envelope: ListEnvelope = counted.data;
  console.log('counted', counted.status, envelope.code, 'counts' in envelope.body);
}

const session = await getSession({ client: createDeveloperClient({ baseUrl: BASE + '/developer/v1' }) });
console.log('session', session.status, session.ok ? (session.status === 204 ? 'no session' : 'signed in') : session.error.code);
`;
}

describe('the SDK packages', () => {
  it('are one tarball per contract, named and versioned from it, ES modules and CommonJS with declarations and no dependencies', () => {
    expect(tarballs.map((path) => path.slice(path.lastIndexOf('/') + 1)).sort()).toEqual(
      CONTRACTS.map((name) => `${SDK_SCOPE.slice(1)}-${name}-${versionOf(name)}.tgz`).sort(),
    );
    for (const name of CONTRACTS) {
      const folder = join(consumer, 'node_modules', SDK_SCOPE, name);
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(manifest).toMatchObject({
        name: `${SDK_SCOPE}/${name}`,
        version: versionOf(name),
        type: 'module',
        exports: {
          '.': {
            import: { types: './dist/index.d.ts', default: './dist/index.js' },
            require: { types: './dist/cjs/index.d.ts', default: './dist/cjs/index.js' },
          },
        },
      });
      expect(manifest.dependencies).toBeUndefined();
      // No export shadows JavaScript's own Error (nor Number).
      expect(readFileSync(join(folder, 'dist', 'index.d.ts'), 'utf8')).not.toMatch(/[{,] (Error|Number)[,} ]/);
    }
  });

  it('type-check strictly in a project without TypeScript of its own, and run against a live server', async () => {
    const apiKey = (await issueCredential.profiles!(server)).authorization!.replace(/^Bearer /, '');
    const token = await publishingToken(server, 'admin');
    writeFileSync(join(consumer, 'main.ts'), program({ base: server.url, apiKey, token }));
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          // The standard fetch types and no others: the packages need no @types/node.
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: [],
          strict: true,
          noUncheckedIndexedAccess: true,
          // TypeScript's own lib files are not the packages' to check (half the time of this tsc); their declarations are checked.
          skipDefaultLibCheck: true,
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );
    const compiled = await exec(process.execPath, [tsc, '-p', consumer]).catch((error: { stdout: string }) => error);
    expect(compiled.stdout).toBe('');
    const { stdout } = await exec(process.execPath, [join(consumer, 'out', 'main.js')], { cwd: consumer });
    expect(stdout.trim().split('\n')).toEqual([
      'default http://localhost:8080/v3 http://localhost:8080/v3',
      'anonymous 200 Alex Morgan false function',
      'keyed 200 2',
      'missing 404 not_found undefined function',
      'unexpected 502',
      `avatar 200 /avatar/${ALEX_SHA256}?s=40 image/png PNG`,
      `avatarUrl /avatar/${ALEX_SHA256}?s=40 200 image/png`,
      'trashed 200 trash',
      'restored 200 {"ID":108,"status":"publish"}',
      'full 200 true publish',
      'enveloped 200 404',
      'terms 200 found,terms true',
      'sites 200 true',
      'counted 200 200 true',
      'session 204 no session',
    ]);
  }, 120_000);
});

function versionOf(name: string): string {
  return /\n {2}version: (\S+)/.exec(readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8'))![1]!;
}
