import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import { createdApplication, signedUpUser, startDashboardServer, uniqueEmail } from './support/dashboard.js';

/**
 * "One inbox, many accounts": `carol+k1@`, `carol+k2@` and `c.a.r.o.l@`
 * reach one gmail inbox, so their accounts share its keys and its keyed
 * lookups; and keyed lookups from one client address are bounded whatever
 * keys it holds.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startDashboardServer({
    TRUST_PROXY: 'true',
    RATE_LIMIT_KEYED: '3',
    RATE_LIMIT_ACCOUNT: '3',
    RATE_LIMIT_KEYED_PER_CLIENT: '4',
    DEVELOPER_KEY_ROTATIONS_PER_DAY: '2',
  });
});
afterAll(() => server?.close());

/** `GET /v3/profiles/alex` with a key from a client address, checked against the profiles contract. */
async function lookup(key: string, from: string) {
  const response = await contractFetch(await contractChecker())(`${server.url}/v3/profiles/alex`, {
    headers: { Authorization: `Bearer ${key}`, 'X-Forwarded-For': from },
  });
  await response.body?.cancel();
  return response.status;
}

/** Three spellings of one gmail inbox. */
function spellingsOfOneInbox() {
  const name = `carol${randomUUID().slice(0, 6).replaceAll('-', '')}`;
  const dotted = name.split('').join('.');
  return [`${name}+k1@gmail.com`, `${name}+k2@gmail.com`, `${dotted}@googlemail.com`] as const;
}

describe('accounts of one inbox', () => {
  it('share its keyed lookups: another account of the inbox adds nothing', async () => {
    const [first, second] = spellingsOfOneInbox();
    const one = await createdApplication(await signedUpUser(server, first));
    const other = await createdApplication(await signedUpUser(server, second));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await lookup(one.new_key.secret, `198.51.100.${10 + i}`));
    expect(statuses).toEqual([200, 200, 200]);
    expect(await lookup(other.new_key.secret, '198.51.100.20')).toBe(429);
  });

  it('share its new keys: the inbox gets DEVELOPER_KEY_ROTATIONS_PER_DAY in 24 hours across its accounts', async () => {
    const [first, second, third] = spellingsOfOneInbox();
    await createdApplication(await signedUpUser(server, first));
    await createdApplication(await signedUpUser(server, second));
    const user = await signedUpUser(server, third);
    const body = { name: 'Third', description: '', website_url: 'https://third.example.com' };
    const refused = await sdk.createApplication({ client: user.client, headers: user.csrf, body });
    expect(refused.response.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'rate_limit_exceeded' });
    // Another inbox is not held back (the control).
    await createdApplication(await signedUpUser(server, uniqueEmail('elsewhere')));
  });
});

describe('keyed lookups from one client address', () => {
  it('are bounded across keys (RATE_LIMIT_KEYED_PER_CLIENT), while another address goes on', async () => {
    const a = await createdApplication(await signedUpUser(server, uniqueEmail('a')));
    const b = await createdApplication(await signedUpUser(server, uniqueEmail('b')));
    const from = '203.0.113.40';
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await lookup(a.new_key.secret, from));
    statuses.push(await lookup(b.new_key.secret, from), await lookup(b.new_key.secret, from));
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(await lookup(b.new_key.secret, '203.0.113.41')).toBe(200);
  });
});
