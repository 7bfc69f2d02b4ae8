// @store-independent
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/tools.js';
import { parseYaml } from '../../../scripts/contracts.js';
import { emailHashes } from '../../../src/accounts/email.js';
import { avatarUrl, DEFAULT_AVATAR_BASE_URL, profileIdentifier } from '../../../sdk/profiles/email.js';

/**
 * The profiles SDK's helpers for clients that start from an email address
 * (`sdk/profiles/email.ts`, exported through `sdk/profiles.ts` by the `@contract-first/profiles` package):
 * they must name the profile and avatar the server names, for any address.
 */
const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('profileIdentifier(email)', () => {
  it("is the SHA-256 hex of the trimmed, lower-cased address (the real service's test vector)", () => {
    expect(profileIdentifier('MyEmailAddress@example.com ')).toBe(
      '84059b07d4be67b806386c0aad8070a23f18836bbaae342275dc0a83414c32ee',
    );
  });

  it('is the hash the server finds the demo profile by', () => {
    expect(profileIdentifier('  Alex@Example.com\n')).toBe(emailHashes('alex@example.com').sha256);
  });

  it("hashes the empty address and messages across SHA-256's block boundaries as node does", () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const address = 'a'.repeat(length);
      expect(profileIdentifier(address)).toBe(nodeSha256(address));
    }
  });

  test.prop([fc.string({ unit: 'grapheme', maxLength: 80 })])(
    "matches node's SHA-256 of the trimmed, lower-cased text, any Unicode",
    (address) => {
      expect(profileIdentifier(address)).toBe(nodeSha256(address.trim().toLowerCase()));
    },
  );
});

describe('avatarUrl(email, options)', () => {
  const hash = emailHashes('alex@example.com').sha256;

  it("is the avatar image of the email's hash on the default server, without a query when no option is given", () => {
    expect(avatarUrl('Alex@example.com')).toBe(`${DEFAULT_AVATAR_BASE_URL}/${hash}`);
  });

  it("carries s, d and r, URL-encoded, on the deployment's base URL", () => {
    expect(
      avatarUrl('alex@example.com', { s: 200, d: 'identicon', r: 'pg', baseUrl: 'https://api.example.com/avatar/' }),
    ).toBe(`https://api.example.com/avatar/${hash}?s=200&d=identicon&r=pg`);
    expect(avatarUrl('alex@example.com', { d: 'https://images.example.com/default avatar.png?x=1&y=2' })).toBe(
      `${DEFAULT_AVATAR_BASE_URL}/${hash}?d=https%3A%2F%2Fimages.example.com%2Fdefault+avatar.png%3Fx%3D1%26y%3D2`,
    );
  });

  it("is served beside a client's base URL: change only the client's address and the avatars follow", () => {
    const client = (baseUrl?: string) => ({ getConfig: () => ({ baseUrl }) });
    expect(avatarUrl('alex@example.com', { client: client('https://api.example.com/v3'), s: 40 })).toBe(
      `https://api.example.com/avatar/${hash}?s=40`,
    );
    expect(avatarUrl('alex@example.com', { client: client('http://127.0.0.1:3000/v3/') })).toBe(
      `http://127.0.0.1:3000/avatar/${hash}`,
    );
    // An explicit baseUrl (a CDN) wins; a client without a base URL leaves the default.
    expect(
      avatarUrl('alex@example.com', { client: client('https://api.example.com/v3'), baseUrl: 'https://cdn.example/a' }),
    ).toBe(`https://cdn.example/a/${hash}`);
    expect(avatarUrl('alex@example.com', { client: client() })).toBe(`${DEFAULT_AVATAR_BASE_URL}/${hash}`);
  });

  it.each([0, 2049, 1.5, Number.NaN])('refuses the size %s, which the server would answer 400', (s) => {
    expect(() => avatarUrl('alex@example.com', { s })).toThrow(RangeError);
  });

  it("defaults to the avatar images of the contract's default server", () => {
    const contract = parseYaml(readFileSync(join(projectRoot, 'openapi', 'profiles.yaml'), 'utf8')) as {
      paths: Record<string, { servers: { variables: { origin: { default: string } } }[] }>;
    };
    expect(DEFAULT_AVATAR_BASE_URL).toBe(
      `${contract.paths['/avatar/{hash}']!.servers[0]!.variables.origin.default}/avatar`,
    );
  });
});
