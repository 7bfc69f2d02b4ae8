import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateProfileRecords } from '../../../src/services/profiles/import/readProfileImport.js';
import { toProfileContent } from '../../../src/services/profiles/import/toProfileContent.js';
import { DEMO_PROFILES, seedProfilesDemo } from '../../../src/services/profiles/demo.js';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

let harness: ProfilesTestServer;
beforeAll(async () => {
  harness = await startProfiles({ PROFILE_LOOKUP_CACHE_MS: '0' });
});
afterAll(() => harness.close());

describe('the demo data', () => {
  it('is loaded into an empty store: alex, sam, quiet and the six publishing demo people', async () => {
    expect(await harness.store.countProfiles()).toBe(9);
    for (const slug of ['alex', 'sam', 'quiet', 'ada', 'sam-subscriber', 'max'])
      expect((await lookup(harness, slug)).status).toBe(200);
  });

  it('passes the import schema the seed leaves out at start-up (it is typed in the source)', () => {
    const full = validateProfileRecords(DEMO_PROFILES, new Date('2026-01-01T00:00:00Z'));
    expect(full.map((record) => record.email)).toEqual([
      'alex@example.com',
      'sam@example.com',
      'quiet@example.com',
      ...['ada', 'ana', 'eddie', 'cora', 'sam', 'max'].map((name) => `${name}@demo.example.com`),
    ]);
    expect(validateProfileRecords(DEMO_PROFILES, new Date('2026-01-01T00:00:00Z'), { typed: true })).toEqual(full);
  });

  it('is not loaded again once the store holds profiles', async () => {
    const summary = await harness.store.saveProfiles([
      {
        email: 'alex@example.com',
        // A profile with only the required fields, the others empty, as an import makes it.
        profile: toProfileContent(
          { email: 'alex@example.com', slug: 'alex', display_name: 'Changed', last_profile_edit: null },
          new Date(),
        ),
        avatar: null,
      },
    ]);
    expect(summary).toEqual({ created: 0, updated: 1 });
    await seedProfilesDemo(harness.server.built.db, harness.server.config);
    expect((await lookup(harness, 'alex')).body.display_name).toBe('Changed');
    expect(await harness.store.countProfiles()).toBe(9);
  });
});
