import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../../src/platform/contract/compile.js';
import { concurrencyGate } from '../../../../src/platform/ops/concurrencyGate.js';
import type { Mailer } from '../../../../src/platform/mail/mailer.js';
import { createDeveloperHandlers } from '../../../../src/services/developer/handlers.js';
import type { KeyRotationLimit } from '../../../../src/services/developer/rateLimit/keyRotations.js';
import type { LoginThrottle } from '../../../../src/services/developer/rateLimit/loginThrottle.js';
import type { MailLimit } from '../../../../src/services/developer/rateLimit/mailLimit.js';
import type { DeveloperStore } from '../../../../src/services/developer/store/developerStore.js';

/**
 * "A reset's timing does not tell a known address from an unknown one": the
 * answer waits for the same work either way (the address looked up, both
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
  const handlers = createDeveloperHandlers({
    contract: await loadContract(fileURLToPath(new URL('../../../../openapi/developer.yaml', import.meta.url))),
    store,
    throttle: {} as LoginThrottle,
    rotations: {} as KeyRotationLimit,
    maxApplications: 10,
    passwordCost: 14,
    passwordGate: concurrencyGate({ capacity: 1, maxWaitMs: 2000, msPerUnit: 400, busy: () => new Error('busy') }),
    sessionTtlSeconds: 60,
    sessionIdleSeconds: 60,
    secureCookie: false,
    mailer: { logsOnly: false, send: async () => {} } satisfies Mailer,
    mailLimit: limit('take per address and client'),
    resetLimit: limit('take per address'),
    publicUrl: 'http://localhost:8080',
    production: false,
    logger: pino({ level: 'silent' }),
  });
  const answer = await handlers.requestPasswordReset({ body: { email: 'carol@example.com' }, ctx: { ip: '203.0.113.9' } } as never);
  const before = [...calls];
  expect(answer).toMatchObject({ status: 202 });
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
