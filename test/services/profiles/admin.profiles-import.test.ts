import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailHashes } from '../../../src/accounts/email.js';
import type { ProfileRecord } from '../../../src/services/profiles/import/profileRecord.js';
import { adminInProcess } from '../../support/admin.js';
import { fetchAvatar, lookup, startProfiles, type ProfilesTestServer } from './support.js';

/**
 * `profiles import` of the admin command line, run in this process on the
 * test server's store (test/admin/cli.process.test.ts runs it as a process).
 */
let harness: ProfilesTestServer;
let folder: string;
let key: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'profiles-import-'));
  // No lookup cache: every change must show on the very next request.
  harness = await startProfiles({ PROFILE_LOOKUP_CACHE_MS: '0' });
  ({ key } = await harness.issueKey());
});
afterAll(async () => {
  await harness?.close();
  rmSync(folder, { recursive: true, force: true });
});

let files = 0;
/** Writes an import file and runs `profiles import` on it. */
function importFile(content: unknown) {
  const file = join(folder, `import-${++files}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return adminInProcess(harness.server.built.db, 'profiles', 'import', file);
}

const robin: ProfileRecord = {
  email: 'Robin@Example.com',
  slug: 'robin',
  display_name: 'Robin Reyes',
  job_title: 'Cartographer',
  links: [{ label: 'Maps', url: 'https://maps.example.com' }],
  contact_info: {
    email: { value: 'robin@maps.example.com', public: true },
    cell_phone: { value: '+1 555 0199', public: false },
  },
  payments: { public: true, links: [], crypto_wallets: [{ label: 'ETH', address: '0xabc' }] },
  verified_accounts: [
    {
      service_type: 'github',
      service_label: 'GitHub',
      service_icon: 'https://icons.example.com/gh.svg',
      url: 'https://github.com/robin',
      is_hidden: true,
    },
  ],
  registration_date: '2020-05-06',
  last_profile_edit: '2026-01-02T03:04:05.678+01:00',
};

describe('profiles import FILE', () => {
  it('creates new profiles and replaces existing ones, found by email hash and slug', async () => {
    const alexBefore = await lookup(harness, 'alex');
    const { code, stdout, stderr } = await importFile([
      robin,
      { email: 'alex@example.com', slug: 'alex', display_name: 'Alex M.' },
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('imported 2 profiles (1 created, 1 updated)');

    const bySlug = await lookup(harness, 'robin', { key });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toMatchObject({
      hash: emailHashes('robin@example.com').sha256,
      display_name: 'Robin Reyes',
      job_title: 'Cartographer',
      contact_info: { email: 'robin@maps.example.com' },
      payments: { links: [], crypto_wallets: [{ label: 'ETH', address: '0xabc' }] },
      verified_accounts: [],
      number_verified_accounts: 1,
      registration_date: '2020-05-06',
      last_profile_edit: '2026-01-02T02:04:05Z',
    });
    expect((await lookup(harness, emailHashes('robin@example.com').md5)).status).toBe(200);

    const alexAfter = await lookup(harness, 'alex', { key });
    expect(alexAfter.body).toMatchObject({ display_name: 'Alex M.', location: '', links: [], verified_accounts: [] });
    expect(alexAfter.body.last_profile_edit).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await lookup(harness, 'alex')).headers.get('etag')).not.toBe(alexBefore.headers.get('etag'));
  });

  it('moves a profile to a new slug when its owner’s record says so', async () => {
    const { code } = await importFile([{ ...robin, slug: 'robin-reyes' }]);
    expect(code).toBe(0);
    expect((await lookup(harness, 'robin-reyes')).status).toBe(200);
    expect((await lookup(harness, 'robin')).status).toBe(404);
  });
});

describe('avatar images and personal details', () => {
  const hashes = emailHashes('robin@example.com');

  it('imports the image a record names (relative to the file), serves it resized, and drops it when a record gives none', async () => {
    mkdirSync(join(folder, 'images'), { recursive: true });
    // A green image, wider than tall: served centre-cropped to a square.
    writeFileSync(
      join(folder, 'images', 'robin.jpg'),
      await sharp({ create: { width: 90, height: 60, channels: 3, background: '#2a9d8f' } })
        .jpeg()
        .toBuffer(),
    );
    const withImage = {
      ...robin,
      avatar_file: 'images/robin.jpg',
      first_name: 'Robin',
      last_name: 'Reyes',
      timezone: 'Europe/Bratislava',
      languages: [{ code: 'sk', name: 'Slovak', is_primary: true }],
      interests: [{ id: 7, name: 'Old maps' }],
      is_organization: true,
      background_color: '#2a9d8f',
    };
    const { code, stdout, stderr } = await importFile([withImage]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('1 with an avatar image');

    const { body } = await lookup(harness, 'robin', { key });
    expect(body).toMatchObject({
      first_name: 'Robin',
      last_name: 'Reyes',
      timezone: 'Europe/Bratislava',
      languages: [{ code: 'sk', name: 'Slovak', is_primary: true, order: 1 }],
      interests: [{ id: 7, name: 'Old maps', slug: '7-old-maps' }],
      is_organization: true,
      header_image: '',
      background_color: '#2a9d8f',
    });
    const image = await fetchAvatar(harness, `${hashes.md5}?s=30`);
    expect(image.status).toBe(200);
    expect(image.image).toMatchObject({ width: 30, height: 30 });
    const [r, g, b] = image.image!.pixel(15, 15);
    expect(Math.abs(r - 0x2a) + Math.abs(g - 0x9d) + Math.abs(b - 0x8f)).toBeLessThan(20);
    expect(image.headers.get('cache-control')).toBe('public, max-age=86400');

    expect((await importFile([robin])).code).toBe(0);
    const fallback = await fetchAvatar(harness, `${hashes.md5}?s=30`);
    expect(fallback.headers.get('cache-control')).toBe('public, max-age=300');
    expect(fallback.bytes.equals(image.bytes)).toBe(false);
    expect((await lookup(harness, 'robin', { key })).body).toMatchObject({
      first_name: '',
      languages: [],
      is_organization: false,
    });
  });

  it('rejects the whole file when an avatar file is missing or no image, naming the record', async () => {
    writeFileSync(join(folder, 'notes.txt'), 'not an image');
    for (const [file, problem] of [
      ['images/none.png', /record 2, field avatar_file: cannot read images\/none\.png \(ENOENT\)/],
      ['notes.txt', /record 2, field avatar_file: notes\.txt is not an image/],
    ] as const) {
      const { code, stderr } = await importFile([
        { email: 'new1@example.com', slug: 'new-1', display_name: 'New 1' },
        { ...robin, avatar_file: file },
      ]);
      expect(code).toBe(1);
      expect(stderr).toMatch(problem);
      expect(stderr).toMatch(/nothing was imported/);
      expect((await lookup(harness, 'new-1')).status).toBe(404);
    }
  });
});

describe('an invalid file is rejected whole, naming the record and field, and nothing is written', () => {
  const fresh = (n: number): ProfileRecord => ({
    email: `new${n}@example.com`,
    slug: `new-${n}`,
    display_name: `New ${n}`,
  });

  // Every validation rule is covered in import-format.test.ts; these go through the command line end to end.
  it.each([
    [
      'a bad URL deep in a record',
      [fresh(1), { ...fresh(2), verified_accounts: [{ ...robin.verified_accounts![0]!, url: 'not a url' }] }],
      /record 2, field verified_accounts\[0\]\.url: must match format "uri"/,
    ],
    [
      'a slug that belongs to another account (found inside the write transaction)',
      [fresh(1), { ...fresh(2), slug: 'sam' }],
      /record 2, field slug: slug "sam" belongs to another account's profile/,
    ],
  ])('%s', async (_what, records, message) => {
    const { code, stdout, stderr } = await importFile(records);
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/nothing was imported/);
    expect(stdout).not.toMatch(/imported \d/);
    expect((await lookup(harness, 'new-1')).status).toBe(404);
    expect((await lookup(harness, 'sam')).body.hash).toBe(emailHashes('sam@example.com').sha256);
  });

  it('a file that is not JSON', async () => {
    const { code, stderr } = await importFile('{ nope');
    expect(code).toBe(1);
    expect(stderr).toMatch(/the file is not JSON/);
  });

  it('a file that does not exist', async () => {
    const { code, stderr } = await adminInProcess(
      harness.server.built.db,
      'profiles',
      'import',
      join(folder, 'missing.json'),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot read .*missing\.json \(ENOENT\)/);
  });
});

describe('--help', () => {
  it('documents the profiles and keys commands', async () => {
    const top = await adminInProcess(harness.server.built.db, '--help');
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/profiles/);
    expect(top.stdout).toMatch(/keys/);
    const importHelp = await adminInProcess(harness.server.built.db, 'profiles', 'import', '--help');
    expect(importHelp.code).toBe(0);
    expect(importHelp.stdout).toMatch(/JSON array of profile records/);
  });
});
