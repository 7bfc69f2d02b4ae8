// @store-independent
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashApiKey, isWellFormedApiKey, issueApiKey } from '../../../src/accounts/apiKey.js';

describe('an issued API key', () => {
  it('carries 256 random bits after a recognisable prefix, and only its hash and prefix are meant to be kept', () => {
    const issued = issueApiKey();
    expect(issued.key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(issued.key.slice(3), 'base64url')).toHaveLength(32);
    expect(issued.hash).toBe(createHash('sha256').update(issued.key).digest('hex'));
    expect(issued.displayPrefix).toBe(issued.key.slice(0, 11));
  });

  it('is different every time', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => issueApiKey().key));
    expect(keys.size).toBe(1000);
  });
});

describe('a bearer token', () => {
  it('is looked up only when shaped like one of our keys', () => {
    expect(isWellFormedApiKey(issueApiKey().key)).toBe(true);
    for (const token of ['pk_short', `sk_${'a'.repeat(43)}`, `pk_${'a'.repeat(44)}`, `pk_${'a'.repeat(42)}=`]) {
      expect(isWellFormedApiKey(token)).toBe(false);
    }
  });

  it('is hashed as keys stored by every earlier release were (SHA-256, hex): a key issued then still authenticates', () => {
    // A fixed key and its hash as computed outside this code (`printf %s KEY | sha256sum`): a change of the
    // hash (a salt, an HMAC, another encoding) fails here instead of silently locking out every stored key.
    const key = 'pk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(hashApiKey(key)).toBe('fc03697119e33d7be05062769f7244a89202a1f5b264b9a33454f4f33d2e4cee');
    const issued = issueApiKey();
    expect(hashApiKey(issued.key)).toBe(issued.hash);
  });
});
