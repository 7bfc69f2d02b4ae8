import { scorePassword } from './passwordEstimator.js';

/** The shortest and longest passwords accepted (the contract says the same). */
export const PASSWORD_LENGTH = { min: 12, max: 128 } as const;

/** The lowest zxcvbn score (0 to 4) a new password must reach: "safely unguessable: moderate protection from offline attacks". */
export const MIN_PASSWORD_SCORE = 3;

/** What the estimator's warning means, said to the person choosing the password. */
const REASONS: Record<string, string> = {
  straightRow: 'it is a row of keys on the keyboard',
  keyPattern: 'it is a short keyboard pattern',
  simpleRepeat: 'it repeats the same characters',
  extendedRepeat: 'it repeats a group of characters',
  sequences: 'it is a common character sequence',
  recentYears: 'it relies on a recent year',
  dates: 'it relies on a date',
  topTen: 'this is one of the ten most common passwords',
  topHundred: 'this is one of the hundred most common passwords',
  common: 'this is a very common password',
  similarToCommon: 'it is too similar to a very common password',
  wordByItself: 'a single word is easy to guess',
  namesByThemselves: 'names are easy to guess',
  commonNames: 'common names are easy to guess',
  userInputs: 'it contains your email address',
  pwned: 'it appeared in a data breach',
};

/**
 * Why a new password is easy to guess, or null when it is acceptable. On top
 * of the length (checked by the contract) a password must reach a zxcvbn
 * score of `MIN_PASSWORD_SCORE` (its first `SCORED_LENGTH` characters are
 * scored, off the event loop: see `passwordEstimator.ts`), the email address
 * and its name part counting as words an attacker would try, and must not
 * contain the address's name part (3 characters or more).
 */
export async function passwordWeakness(password: string, email: string): Promise<string | null> {
  const address = email.trim().toLowerCase();
  const name = address.split('@')[0] ?? '';
  if (name.length >= 3 && password.toLowerCase().includes(name)) return REASONS.userInputs!;
  const result = await scorePassword(password, [
    address,
    name,
    ...name.split(/[._+-]+/).filter((part) => part.length >= 3),
  ]);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return (result.warning && REASONS[result.warning]) || 'it would be guessed too quickly';
}
