/**
 * Passwords the dashboard refuses even though they are long enough: the
 * start of every published list of breached passwords, lower case. A
 * password that merely contains one of them plus a few characters is
 * refused too (see `passwordWeakness`).
 */
const COMMON_PASSWORDS = [
  'password',
  'passw0rd',
  'p@ssword',
  'p@ssw0rd',
  '123456',
  '1234567',
  '12345678',
  '123456789',
  '1234567890',
  '987654321',
  'qwerty',
  'qwertyuiop',
  'asdfgh',
  'zxcvbn',
  'abc123',
  'iloveyou',
  'letmein',
  'welcome',
  'admin',
  'monkey',
  'dragon',
  'football',
  'baseball',
  'sunshine',
  'princess',
  'trustno1',
  'changeme',
  'secret',
];

/** The shortest and longest passwords accepted (the contract says the same). */
export const PASSWORD_LENGTH = { min: 12, max: 128 } as const;

/**
 * Why a new password is easy to guess, or null when it is acceptable. On top
 * of the length (12 to 128 characters, checked by the contract) a password
 * is refused when it has fewer than 5 distinct characters, when it is a
 * common password with at most 4 characters around it, or when it contains
 * the name part of the account's email address.
 */
export function passwordWeakness(password: string, email: string): string | null {
  const lower = password.toLowerCase();
  if (new Set(lower).size < 5) return 'it repeats too few different characters';
  for (const common of COMMON_PASSWORDS) {
    if (lower.includes(common) && lower.length - common.length <= 4) return 'it is one of the most common passwords';
  }
  const name = email.trim().toLowerCase().split('@')[0] ?? '';
  if (name.length >= 3 && lower.includes(name)) return 'it contains your email address';
  return null;
}
