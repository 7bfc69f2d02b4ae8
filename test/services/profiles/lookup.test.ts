import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailHashes } from '../../../src/accounts/email.js';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

const ALEX_SHA256 = '6db61e6dcbcf2390e4a46af426f26a133a3bee45021422fc7ae86e9136f14110';
let harness: ProfilesTestServer;

beforeAll(async () => {
  harness = await startProfiles();
});
afterAll(() => harness.close());

describe('email hashes', () => {
  it('are the hex digests of the trimmed, lower-cased email (the reference test vector)', () => {
    expect(emailHashes('MyEmailAddress@example.com ').sha256).toBe(
      '84059b07d4be67b806386c0aad8070a23f18836bbaae342275dc0a83414c32ee',
    );
    expect(emailHashes(' Alex@Example.com').sha256).toBe(ALEX_SHA256);
    expect(emailHashes('alex@example.com').md5).toBe(createHash('md5').update('alex@example.com').digest('hex'));
  });
});

describe('lookup by the SHA-256 of the primary email', () => {
  it('finds the profile in lower case', async () => {
    const { status, body } = await lookup(harness, ALEX_SHA256);
    expect(status).toBe(200);
    expect(body.display_name).toBe('Alex Morgan');
    expect(body.hash).toBe(ALEX_SHA256);
  });

  it('finds the profile in upper case, and answers the hash in lower case', async () => {
    const { status, body } = await lookup(harness, ALEX_SHA256.toUpperCase());
    expect(status).toBe(200);
    expect(body.hash).toBe(ALEX_SHA256);
  });
});

describe('lookup by the legacy MD5 of the primary email', () => {
  it('finds the profile, in either case', async () => {
    const md5 = emailHashes('alex@example.com').md5;
    for (const identifier of [md5, md5.toUpperCase()]) {
      const { status, body } = await lookup(harness, identifier);
      expect(status).toBe(200);
      expect(body.hash).toBe(ALEX_SHA256);
    }
  });
});

describe('lookup by slug', () => {
  it('finds the profile, in any case', async () => {
    for (const identifier of ['alex', 'Alex']) {
      const { status, body } = await lookup(harness, identifier);
      expect(status).toBe(200);
      expect(body.hash).toBe(ALEX_SHA256);
    }
  });

  it('builds profile_url from PUBLIC_URL and the slug', async () => {
    const { body } = await lookup(harness, 'sam');
    expect(body.profile_url).toBe(`${harness.server.config.publicUrl}/sam`);
  });

  it('accepts and ignores unknown query parameters such as source', async () => {
    const res = await harness.call(`${harness.server.url}/v3/profiles/alex?source=hovercard`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ display_name: 'Alex Morgan' });
  });
});

describe('an identifier that names no profile', () => {
  it.each([
    ['an unknown slug', 'nobody-here'],
    ['the SHA-256 of an unknown email', emailHashes('nobody@example.com').sha256],
    ['the MD5 of an unknown email', emailHashes('nobody@example.com').md5],
    ['something that is neither a hash nor a slug', 'not a slug!'],
  ])('answers 404 in the error format for %s', async (_what, identifier) => {
    const { status, body } = await lookup(harness, identifier);
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Profile not found', code: 'not_found' });
  });

  it('does not resolve a hash of an email other than the primary one (the contact email)', async () => {
    const { status } = await lookup(harness, emailHashes('hello@alex.example.com').sha256);
    expect(status).toBe(404);
  });
});

describe('a profile with nothing optional set', () => {
  it('answers every always-present field, empty ones as "", and an avatar URL all the same', async () => {
    const { status, body } = await lookup(harness, 'sam');
    expect(status).toBe(200);
    expect(body).toEqual({
      hash: emailHashes('sam@example.com').sha256,
      display_name: 'Sam',
      profile_url: `${harness.server.config.publicUrl}/sam`,
      avatar_url: `${harness.server.config.publicUrl}/avatar/${emailHashes('sam@example.com').sha256}`,
      avatar_alt_text: '',
      location: '',
      description: '',
      job_title: '',
      company: '',
      verified_accounts: [],
      pronunciation: '',
      pronouns: '',
      header_image: '',
      background_color: '',
    });
  });
});
