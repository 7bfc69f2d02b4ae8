// @store-independent
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { startProcess, type ServerProcess } from '../../support/processes.js';
import { GOOD_PASSWORD, uniqueEmail } from './support/dashboard.js';

/**
 * The log-in flood of issue 32, against the bundled server as a process:
 * nine accounts log in with their right passwords, in a loop, from one
 * address, while a person with the right password logs in from another.
 * Successful log-ins count against their address (they cost a password hash
 * as much as failures do), so the flood runs into 429 after the address's
 * attempts; the person's own attempts are theirs, and a hash the gate turns
 * away (503) does not count against anybody. So the person gets in after a
 * bounded wait: a few `Retry-After` seconds at most, never a 429.
 */
const dir = mkdtempSync(join(tmpdir(), 'login-flood-'));
let proc: ServerProcess;
let checked: typeof fetch;

const FLOODING_ADDRESS = '203.0.113.7';
const PERSON_ADDRESS = '198.51.100.9';
/** The per-address attempts of the window, as configured below (the default is 50 per 15 minutes). */
const ATTEMPTS_PER_ADDRESS = 30;

beforeAll(async () => {
  proc = await startProcess({
    DATABASE_URL: `sqlite:${join(dir, 'flood.db')}`,
    // Each "address" is the one a trusted proxy appended.
    TRUST_PROXY: 'true',
    DEVELOPER_PASSWORD_COST: '14',
    DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT: String(ATTEMPTS_PER_ADDRESS),
    LOG_LEVEL: 'warn',
  });
  checked = contractFetch(await contractChecker());
});
afterAll(async () => {
  await proc?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A dashboard call from `address` (through the proxy), its answer checked against the contract. */
function call(address: string, path: string, body: unknown): Promise<Response> {
  return checked(`${proc.base}/developer/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
}

/** Signs up `email` from an address of its own (sign-ups count against their address too), retrying while the gate is busy. */
async function signedUp(email: string, address: string): Promise<void> {
  for (let tries = 0; tries < 20; tries++) {
    const res = await call(address, '/accounts', { email, password: GOOD_PASSWORD });
    await res.arrayBuffer();
    if (res.status === 202) return;
    if (res.status !== 503) throw new Error(`sign-up answered ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after')) * 1000));
  }
  throw new Error('sign-up never got through the password gate');
}

describe('a log-in flood from one address', () => {
  it('runs into 429 after the address’s attempts, while a person from another address gets in after a bounded wait', async () => {
    const flooders = Array.from({ length: 9 }, () => uniqueEmail('flood'));
    const person = uniqueEmail('person');
    for (const [index, email] of [...flooders, person].entries()) await signedUp(email, `192.0.2.${index + 1}`);

    const flood: Record<number, number> = {};
    let personDone = false;
    // Each flooder logs in again and again until the address is refused three times running, and the person is in.
    const flooding = flooders.map(async (email) => {
      let refusedInARow = 0;
      while (refusedInARow < 3 || !personDone) {
        const res = await call(FLOODING_ADDRESS, '/session', { email, password: GOOD_PASSWORD });
        await res.arrayBuffer();
        flood[res.status] = (flood[res.status] ?? 0) + 1;
        refusedInARow = res.status === 429 ? refusedInARow + 1 : 0;
        // Refused for the window: no need to hammer a server on a shared machine.
        if (res.status === 429) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });

    // The person starts once the flood has been answered at least once.
    while (Object.keys(flood).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const personAnswers: number[] = [];
    for (let tries = 0; tries < 30 && !personAnswers.includes(200); tries++) {
      const res = await call(PERSON_ADDRESS, '/session', { email: person, password: GOOD_PASSWORD });
      await res.arrayBuffer();
      personAnswers.push(res.status);
      if (res.status === 503)
        await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after')) * 1000));
    }
    personDone = true;
    await Promise.all(flooding);

    // The person got in, and was never refused for the flood's attempts; at most a few 503s from the busy gate.
    expect(personAnswers.at(-1), JSON.stringify({ personAnswers, flood })).toBe(200);
    expect(personAnswers.filter((status) => status !== 503 && status !== 200)).toEqual([]);
    // The flood's successes are bounded by its address's attempts, and the rest refused.
    expect(flood[200] ?? 0).toBeLessThanOrEqual(ATTEMPTS_PER_ADDRESS);
    expect(flood[429]).toBeGreaterThanOrEqual(3);
    expect(Object.keys(flood).filter((status) => !['200', '429', '503'].includes(status))).toEqual([]);
  }, 120_000);
});
