import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  csrfTokenFor,
  csrfTokenMatches,
  hashSessionToken,
  isWellFormedSessionToken,
  issueSessionToken,
} from '../../../../src/services/developer/domain/sessionToken.js';

describe('session tokens', () => {
  it('are 256 random bits, stored as their SHA-256', () => {
    const tokens = Array.from({ length: 50 }, issueSessionToken);
    expect(new Set(tokens.map((issued) => issued.token)).size).toBe(50);
    for (const { token, tokenHash } of tokens) {
      expect(isWellFormedSessionToken(token)).toBe(true);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(hashSessionToken(token)).toBe(tokenHash);
    }
  });

  it.each(['', 'short', 'A'.repeat(44), `${'A'.repeat(42)}=`, `${'A'.repeat(42)}.`])(
    '%j is not well formed',
    (token) => {
      expect(isWellFormedSessionToken(token)).toBe(false);
    },
  );
});

describe('CSRF tokens', () => {
  it('are fixed per session, differ between sessions, and are neither the token nor its stored hash', () => {
    const a = issueSessionToken();
    const b = issueSessionToken();
    expect(csrfTokenFor(a.token)).toBe(csrfTokenFor(a.token));
    expect(csrfTokenFor(a.token)).not.toBe(csrfTokenFor(b.token));
    expect(csrfTokenFor(a.token)).not.toBe(a.token);
    expect(Buffer.from(csrfTokenFor(a.token), 'base64url').toString('hex')).not.toBe(a.tokenHash);
  });

  it('match only exactly', () => {
    const expected = csrfTokenFor(issueSessionToken().token);
    expect(csrfTokenMatches(expected, expected)).toBe(true);
    expect(csrfTokenMatches(expected.slice(1), expected)).toBe(false);
    expect(csrfTokenMatches(`${expected}x`, expected)).toBe(false);
    expect(csrfTokenMatches(expected.toUpperCase(), expected)).toBe(false);
    expect(csrfTokenMatches('', expected)).toBe(false);
  });
});
