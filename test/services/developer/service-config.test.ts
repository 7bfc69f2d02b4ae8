import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { configFromEnv } from '../../../src/app.js';
import type { AuthorizationServer } from '../../../src/accounts/oauth/authorizationServer.js';
import { pino } from 'pino';
import { developerDeps, developerService } from '../../../src/services/developer/module.js';
import { DEVELOPMENT_COUNTER_KEY_SECRET } from '../../../src/services/developer/settings.js';
import { TEST_PASSWORD_COST } from '../../../src/services/developer/domain/password.js';
import { loadContract } from '../../../src/platform/contract/compile.js';
import type { TestServer } from '../../support/server.js';
import { signedUpUser, startDashboardServer } from './support/dashboard.js';

/**
 * Building the dashboard's service with the settings `env` gives, as a function to call: its deps object
 * (the settings are checked before anything is made of the platform's parts, stubbed here) and the service.
 */
async function serviceBuiltFrom(env: NodeJS.ProcessEnv, floor?: number) {
  const contract = await loadContract(fileURLToPath(new URL('../../../openapi/developer.yaml', import.meta.url)));
  const read = configFromEnv(env);
  // The floor as code that builds its settings lowers it (the test servers); no variable sets it.
  const config = floor === undefined ? read : { ...read, developer: { ...read.developer, passwordCostFloor: floor } };
  const platform = { contract, config, logger: pino({ level: 'silent' }) } as unknown as Parameters<
    typeof developerDeps
  >[0];
  return () => developerService(developerDeps(platform, {} as AuthorizationServer));
}

/** The dashboard's settings, and the dashboard served on its own. */
describe('DEVELOPER_PASSWORD_COST', () => {
  it.each(['13', '21', '10'])('refuses %s when the service is built', async (cost) => {
    const build = await serviceBuiltFrom({ DEVELOPER_PASSWORD_COST: cost });
    expect(build).toThrow(`DEVELOPER_PASSWORD_COST must be from 14 to 20, got ${cost}`);
  });

  it('takes the test cost only where code lowered the floor to it, and no floor below it', async () => {
    const cost = String(TEST_PASSWORD_COST);
    expect(await serviceBuiltFrom({ DEVELOPER_PASSWORD_COST: cost }, TEST_PASSWORD_COST)).not.toThrow();
    expect(await serviceBuiltFrom({ DEVELOPER_PASSWORD_COST: cost }, TEST_PASSWORD_COST - 1)).toThrow(
      `the password cost's floor must be from ${TEST_PASSWORD_COST} to 14`,
    );
  });

  it('defaults to 17, one hash at a time with up to 2 s of expected wait, with 12-hour sessions, 5 / 50 attempts per 15 minutes, 1000 other requests an hour and 300 / 100 OAuth requests an hour per address / application and address', () => {
    expect(configFromEnv({}).developer).toEqual({
      sessionTtlSeconds: 43200,
      sessionIdleSeconds: 1800,
      passwordCost: 17,
      // No variable lowers the floor: only code that builds the settings (the test servers) does.
      passwordCostFloor: 14,
      passwordHashes: { running: 1, maxWaitMs: 2000 },
      loginAttempts: { perEmailAndClient: 5, perClient: 50, windowSeconds: 900 },
      maxApplications: 10,
      keyRotationsPerDay: 10,
      requestsPerHour: 1000,
      requestsWindowSeconds: 3600,
      oauthLimits: { perAddress: 300, perApplication: 100, windowSeconds: 3600 },
      // Mail and the counters' key are the dashboard's settings: no mail server (the log, off production), the development key.
      smtpUrl: undefined,
      mailToLog: false,
      counterKeySecret: DEVELOPMENT_COUNTER_KEY_SECRET,
    });
  });
});

describe('DEVELOPER_PASSWORD_HASHES', () => {
  it('refuses 0 (no password could ever be checked) when the service is built', async () => {
    const build = await serviceBuiltFrom({ DEVELOPER_PASSWORD_HASHES: '0' });
    expect(build).toThrow('DEVELOPER_PASSWORD_HASHES must be at least 1, got 0');
  });
});

describe('SERVICES=developer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startDashboardServer({ SERVICES: 'developer' });
  });
  afterAll(() => server.close());

  it('serves the dashboard and its API alone', async () => {
    const user = await signedUpUser(server);
    expect((await sdk.listApplications({ client: user.client })).response.status).toBe(200);
    expect((await fetch(`${server.url}/developers`)).status).toBe(200);
    expect((await fetch(`${server.url}/v3/profiles/alex`)).status).toBe(404);
  });
});

describe('SERVICES without developer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startDashboardServer({ SERVICES: 'profiles' });
  });
  afterAll(() => server.close());

  it('serves neither the page nor its API', async () => {
    expect((await fetch(`${server.url}/developers`)).status).toBe(404);
    expect((await fetch(`${server.url}/developer/v1/session`)).status).toBe(404);
  });
});
