import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_COST,
  hashPassword,
  MIN_PASSWORD_COST,
  TEST_PASSWORD_COST,
  verifyPassword,
} from '../../../../src/services/developer/domain/password.js';

/** The password hash: scrypt from Node's crypto, a random salt, parameters in the stored value, constant-time check. */
describe('hashPassword', () => {
  it('uses scrypt with N = 2^17, r = 8, p = 1 and a 128-bit salt by default', async () => {
    expect(DEFAULT_PASSWORD_COST).toBe(17);
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
  });

  it('salts every hash: the same password twice gives two hashes that both verify', async () => {
    const [a, b] = await Promise.all([
      hashPassword('same password twice', 14),
      hashPassword('same password twice', 14),
    ]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same password twice', a)).toBe(true);
    expect(await verifyPassword('same password twice', b)).toBe(true);
  });

  it.each([13, 21, 15.5])('refuses the cost %s', async (cost) => {
    await expect(hashPassword('whatever it is', cost)).rejects.toThrow(RangeError);
  });
});

describe('verifyPassword', () => {
  it('refuses another password, and one differing only in letter case', async () => {
    const stored = await hashPassword('Correct Horse', 14);
    expect(await verifyPassword('Correct Horse!', stored)).toBe(false);
    expect(await verifyPassword('correct horse', stored)).toBe(false);
  });

  it('matches the same characters in another Unicode normal form', async () => {
    const stored = await hashPassword('caf\u00e9 au lait please', 14);
    expect(await verifyPassword('cafe\u0301 au lait please', stored)).toBe(true);
  });

  it('verifies with the parameters stored in the hash, whatever the current default', async () => {
    const stored = await hashPassword('an older cheaper hash', 14);
    expect(stored.startsWith('$scrypt$ln=14,')).toBe(true);
    expect(await verifyPassword('an older cheaper hash', stored)).toBe(true);
  });

  it.each([
    ['an empty value', ''],
    ['another scheme', '$2b$12$abcdefghijklmnopqrstuv'],
    ['absurd parameters', '$scrypt$ln=40,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'],
    ['a truncated hash', '$scrypt$ln=14,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA'],
  ])('never matches %s', async (_case, stored) => {
    expect(await verifyPassword('anything at all', stored)).toBe(false);
  });
});

/** The test cost (test servers only): below the deployments' floor, made and checked only where the floor is lowered to it. */
describe('the floor', () => {
  it("keeps a hash and a check below the deployments' floor out unless the floor is lowered, and never below the test cost", async () => {
    expect(TEST_PASSWORD_COST).toBeLessThan(MIN_PASSWORD_COST);
    await expect(hashPassword('whatever it is', TEST_PASSWORD_COST)).rejects.toThrow(RangeError);
    const cheap = await hashPassword('whatever it is', TEST_PASSWORD_COST, TEST_PASSWORD_COST);
    expect(cheap.startsWith(`$scrypt$ln=${TEST_PASSWORD_COST},`)).toBe(true);
    expect(await verifyPassword('whatever it is', cheap, TEST_PASSWORD_COST)).toBe(true);
    // A stored hash below the deployments' floor never matches there.
    expect(await verifyPassword('whatever it is', cheap)).toBe(false);
    // A floor asked for below the test cost is the test cost.
    await expect(hashPassword('whatever it is', TEST_PASSWORD_COST - 1, 1)).rejects.toThrow(RangeError);
    // A hash at the deployments' floor is checked alike under the lowered one (the demo's people log in).
    const real = await hashPassword('whatever it is', MIN_PASSWORD_COST);
    expect(await verifyPassword('whatever it is', real, TEST_PASSWORD_COST)).toBe(true);
  });
});
