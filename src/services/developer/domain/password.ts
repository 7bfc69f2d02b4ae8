import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * The cost of a password hash: scrypt with N = 2^logN, block size r = 8 and
 * parallelism p = 1. The default, logN = 17 (128 MiB of memory per hash),
 * is OWASP's minimum for scrypt; DEVELOPER_PASSWORD_COST may raise it
 * (or lower it to 14 for tests). Every hash carries its own parameters, so
 * changing the cost never locks anyone out.
 */
export const DEFAULT_PASSWORD_COST = 17;
export const MIN_PASSWORD_COST = 14;
export const MAX_PASSWORD_COST = 20;
/**
 * The cost test servers hash at (1 MiB a hash): below every deployment's floor, which no variable lowers; only
 * code that builds the settings itself passes it, and tests of the cost and of the hash gate keep the real one
 * (docs/decisions/test-password-cost.md).
 */
export const TEST_PASSWORD_COST = 10;

const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (PHC string format, base64 without padding). */
const STORED = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

const derive = (password: string, salt: Buffer, logN: number, r: number, p: number, length: number) =>
  new Promise<Buffer>((resolve, reject) => {
    // scrypt needs 128 * N * r bytes; the default ceiling (32 MiB) is below what logN = 17 uses.
    const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

/** The floor asked for, never below the test cost. */
const lowest = (floor: number) => Math.max(floor, TEST_PASSWORD_COST);

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/**
 * Hashes a password for storage: scrypt (memory-hard, from Node's crypto,
 * run off the event loop) with a fresh 128-bit random salt. The password is
 * NFC-normalised first, so the same characters typed on another keyboard
 * still match.
 */
export async function hashPassword(
  password: string,
  cost: number = DEFAULT_PASSWORD_COST,
  floor: number = MIN_PASSWORD_COST,
): Promise<string> {
  if (!Number.isInteger(cost) || cost < lowest(floor) || cost > MAX_PASSWORD_COST) {
    throw new RangeError(`password cost must be an integer from ${lowest(floor)} to ${MAX_PASSWORD_COST}`);
  }
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, cost, BLOCK_SIZE, PARALLELISM, HASH_BYTES);
  return `$scrypt$ln=${cost},r=${BLOCK_SIZE},p=${PARALLELISM}$${b64(salt)}$${b64(hash)}`;
}

/**
 * True when `password` is the one `stored` was made from. The comparison
 * takes the same time whatever the bytes; a stored value that is not a
 * well-formed hash (or asks for absurd parameters, a cost below `floor`
 * among them) never matches.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  floor: number = MIN_PASSWORD_COST,
): Promise<boolean> {
  const parts = STORED.exec(stored);
  if (!parts) return false;
  const [logN, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (logN < lowest(floor) || logN > MAX_PASSWORD_COST || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length < 16) return false;
  const actual = await derive(password, Buffer.from(parts[4]!, 'base64'), logN, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}
