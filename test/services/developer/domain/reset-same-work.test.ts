import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Mailer } from '../../../../src/services/developer/domain/mail.js';
import { requestPasswordReset } from '../../../../src/services/developer/flows/emailFlows.js';
import type { MailLimit } from '../../../../src/services/developer/rateLimit/mailLimit.js';
import type { DeveloperStore } from '../../../../src/services/developer/domain/developerStore.js';

/**
 * "A reset's timing does not tell a known address from an unknown one": the
 * answer (the flow returning) waits for the same work either way (the address looked up, both
 * counts taken); the link is stored and mailed only after the answer.
 */
async function workBeforeTheAnswer(known: boolean): Promise<string[]> {
  const calls: string[] = [];
  const store = {
    async findCredentials() {
      calls.push('findCredentials');
      return known ? { accountId: 'a1', passwordHash: 'x' } : undefined;
    },
    async issueEmailToken() {
      calls.push('issueEmailToken');
    },
  } as unknown as DeveloperStore;
  const limit = (name: string): MailLimit => ({
    async take() {
      calls.push(name);
    },
    async allows() {
      calls.push(name);
      return true;
    },
  });
  const deps = {
    store,
    mailer: { logsOnly: false, send: async () => {} } satisfies Mailer,
    mailLimit: limit('take per address and client'),
    resetLimit: limit('take per address'),
    publicUrl: 'http://localhost:8080',
    logger: pino({ level: 'silent' }),
  };
  await requestPasswordReset(deps, { email: 'carol@example.com', ip: '203.0.113.9' });
  const before = [...calls];
  // What follows the answer, for the known address only.
  await new Promise((resolve) => setImmediate(resolve));
  expect(calls.slice(before.length)).toEqual(known ? ['issueEmailToken'] : []);
  return before;
}

describe('a password reset request', () => {
  it('waits for the same work for a known and an unknown address', async () => {
    const known = await workBeforeTheAnswer(true);
    expect(known).toEqual(['findCredentials', 'take per address and client', 'take per address']);
    expect(await workBeforeTheAnswer(false)).toEqual(known);
  });
});
