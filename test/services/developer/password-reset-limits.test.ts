import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';
import { dashboardCaller, signedUpUser, startDashboardServer, uniqueEmail } from './support/dashboard.js';
import { startMailbox, type Mailbox } from './support/mailbox.js';

/**
 * "Recovery nobody can block": reset links are counted per address and
 * client address together (5 an hour), and per address whoever asks (20),
 * so a stranger asking for someone's resets uses up their own share, never
 * the owner's. Every message here is real mail, taken by an SMTP server in
 * this process.
 */
let mailbox: Mailbox;
let server: TestServer;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startDashboardServer({ SMTP_URL: mailbox.url, TRUST_PROXY: 'true' });
});

afterAll(async () => {
  await server?.close();
  await mailbox?.close();
});

const STRANGER = '203.0.113.66';
const OWNER = '198.51.100.7';

/** Asks for a reset link for `email` from the client address `from`. */
async function askForReset(email: string, from: string) {
  const caller = await dashboardCaller(server);
  const answer = await sdk.requestPasswordReset({
    client: caller.client,
    body: { email },
    headers: { 'X-Forwarded-For': from },
  });
  expect(answer.response.status).toBe(202);
  return answer;
}

/** Reset messages to an address still unread in the mailbox (its verification message aside). */
const resetMailsTo = (email: string) =>
  mailbox.inbox.filter((mail) => JSON.stringify(mail.to).includes(email) && (mail.text ?? '').includes('#reset='));

describe('password reset links', () => {
  it('still reach the owner, from their own address, after a stranger used up theirs', async () => {
    const carol = await signedUpUser(server, uniqueEmail('carol'));
    for (let request = 0; request < 5; request++) {
      await askForReset(carol.email, STRANGER);
      await mailbox.nextLink(carol.email, 'reset');
    }
    // The stranger's share is spent: a sixth asks for nothing, with the same answer.
    const spent = await askForReset(carol.email, STRANGER);

    const own = await askForReset(carol.email, OWNER);
    expect(own.data).toEqual(spent.data);
    const { token } = await mailbox.nextLink(carol.email, 'reset');
    const anonymous = await dashboardCaller(server);
    const reset = await sdk.resetPassword({
      client: anonymous.client,
      body: { token, password: 'purple walrus ladder 77' },
    });
    expect(reset.response.status).toBe(204);

    // A message that leaves after the stranger's sixth request: once it has arrived, carol has had no more.
    const sentinel = await signedUpUser(server, uniqueEmail('sentinel'));
    await askForReset(sentinel.email, STRANGER);
    await mailbox.nextLink(sentinel.email, 'reset');
    expect(resetMailsTo(carol.email)).toEqual([]);
  });

  it("still reach the owner after a stranger kept asking past their share: refused requests spend nothing of the address's 20", async () => {
    const erin = await signedUpUser(server, uniqueEmail('erin'));
    const stranger = '203.0.113.77';
    for (let request = 0; request < 5; request++) {
      await askForReset(erin.email, stranger);
      await mailbox.nextLink(erin.email, 'reset');
    }
    // Twenty more from the stranger's address, all refused by its share: were they counted per address too, the 20 would be spent.
    for (let request = 0; request < 20; request++) await askForReset(erin.email, stranger);
    await askForReset(erin.email, OWNER);
    const { token } = await mailbox.nextLink(erin.email, 'reset');
    expect(token).toBeTruthy();
  });

  it('to one address are bounded whoever asks: 20 an hour across client addresses', async () => {
    const dana = await signedUpUser(server, uniqueEmail('dana'));
    for (let request = 0; request < 20; request++) {
      await askForReset(dana.email, `192.0.2.${request}`);
      await mailbox.nextLink(dana.email, 'reset');
    }
    await askForReset(dana.email, '192.0.2.200');
    const sentinel = await signedUpUser(server, uniqueEmail('sentinel'));
    await askForReset(sentinel.email, '192.0.2.201');
    await mailbox.nextLink(sentinel.email, 'reset');
    expect(resetMailsTo(dana.email)).toEqual([]);
  });
});
