import { describe, expect, it } from 'vitest';
import { passwordWeakness } from '../../../../src/services/developer/domain/passwordPolicy.js';

/** Passwords long enough for the contract but still easy to guess. */
describe('passwordWeakness', () => {
  it.each([
    ['violet tractor umbrella 42'],
    ['a-much-longer-passphrase-with-password-inside'],
    ['Tr0ub4dor&3xyz'],
  ])('accepts %s', (password) => {
    expect(passwordWeakness(password, 'dana@example.com')).toBeNull();
  });

  it.each([
    ['password1234', 'it is one of the most common passwords'],
    ['PASSWORD!!!!', 'it is one of the most common passwords'],
    ['123456789012', 'it is one of the most common passwords'],
    ['qwertyuiop12', 'it is one of the most common passwords'],
    ['aaaaaaaaaaaaaaa', 'it repeats too few different characters'],
    ['abcdabcdabcdabcd', 'it repeats too few different characters'],
    ['dana.smith-2026', 'it contains your email address'],
  ])('refuses %s: %s', (password, reason) => {
    expect(passwordWeakness(password, 'Dana.Smith@example.com')).toBe(reason);
  });

  it('ignores an email name too short to matter', () => {
    expect(passwordWeakness('ab wandering clouds', 'ab@example.com')).toBeNull();
  });
});
