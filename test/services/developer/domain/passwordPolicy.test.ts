import { describe, expect, it } from 'vitest';
import { passwordWeakness } from '../../../../src/services/developer/domain/passwordPolicy.js';

/** Passwords long enough for the contract but still easy to guess, judged by zxcvbn (score 3 of 4 needed). */
describe('passwordWeakness', () => {
  it.each([
    ['violet tractor umbrella 42'],
    ['a-much-longer-passphrase-with-password-inside'],
    ['Tr0ub4dor&3xyz'],
    ['correct horse battery staple'],
  ])('accepts %s', async (password) => {
    expect(await passwordWeakness(password, 'dana@example.com')).toBeNull();
  });

  it.each([
    ['password1234', 'it is too similar to a very common password'],
    ['123456789012', 'this is a very common password'],
    ['qwertyuiop12', 'it is too similar to a very common password'],
    // A common password with a little around it: the old 28-word list let this through.
    ['Qwerty!2024', 'it is too similar to a very common password'],
    ['iloveyou2025!', 'it is too similar to a very common password'],
    ['aaaaaaaaaaaaaaa', 'it repeats the same characters'],
    ['abcdabcdabcdabcd', 'it repeats a group of characters'],
    ['dana.smith-2026', 'it contains your email address'],
  ])('refuses %s: %s', async (password, reason) => {
    expect(await passwordWeakness(password, 'Dana.Smith@example.com')).toBe(reason);
  });

  it('ignores an email name too short to matter', async () => {
    expect(await passwordWeakness('ab wandering clouds', 'ab@example.com')).toBeNull();
  });
});
