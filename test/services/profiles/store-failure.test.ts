import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../generated/profiles/client/index.js';
import { getProfileById } from '../../../generated/profiles/sdk.gen.js';
import { configFromEnv } from '../../../src/app.js';
import { loadContract } from '../../../src/platform/contract/compile.js';
import { contractPipeline } from '../../../src/platform/pipeline/pipeline.js';
import { requestId } from '../../../src/platform/answers/requestId.js';
import { issueApiKey } from '../../../src/accounts/apiKey.js';
import { profilesDeps, profilesService } from '../../../src/services/profiles/module.js';
import type { ProfilesStore } from '../../../src/services/profiles/domain/profilesStore.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

const INTERNALS = /ECONNREFUSED|10\.0\.0\.5|destroyed|sqlite|postgres|kysely|stack|\.ts/i;
const call = contractFetch(await contractChecker());
let harness: ProfilesTestServer | undefined;
let server: Server | undefined;
afterEach(async () => {
  await harness?.close();
  server?.close();
  harness = server = undefined;
});

describe('a store that fails under a running server', () => {
  it('turns a lookup into a 500 in the error format with nothing internal in it', async () => {
    harness = await startProfiles({ PROFILE_LOOKUP_CACHE_MS: '0' });
    expect((await lookup(harness, 'alex')).status).toBe(200);
    await harness.server.built.db.destroy();

    const res = await harness.call(`${harness.server.url}/v3/profiles/alex`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(text).not.toMatch(INTERNALS);
  });
});

describe('a store that fails under a running server, for the other reads', () => {
  it('turns a search, inferred interests and a QR code into 500s in the error format with nothing internal in them', async () => {
    harness = await startProfiles({ PROFILE_LOOKUP_CACHE_MS: '0', API_KEY_CACHE_MS: '600000' });
    const { key } = await harness.issueKey();
    const authorized = { headers: { Authorization: `Bearer ${key}` } };
    const base = `${harness.server.url}/v3`;
    const paths = [
      '/profiles/search/by-verified-account?username=alexmorgan',
      '/profiles/alex/inferred-interests',
      '/qr-code/alex',
    ];
    // The key is learned while the store answers, so the failures below are the reads' own.
    for (const path of paths) expect((await harness.call(`${base}${path}`, authorized)).status).toBe(200);
    await harness.server.built.db.destroy();

    for (const path of [...paths.slice(0, 2), '/qr-code/alex?size=321']) {
      const res = await harness.call(`${base}${path}`, authorized);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: 'Internal server error', code: 'internal_error' });
      expect(text).not.toMatch(INTERNALS);
    }
  });
});

/** Serves the profiles service on `store` through the shared pipeline, logging into an array. */
async function serveWith(store: ProfilesStore) {
  const logged: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  const contract = await loadContract(fileURLToPath(new URL('../../../openapi/profiles.yaml', import.meta.url)));
  const config = configFromEnv({ LOG_LEVEL: 'silent' });
  // A platform with no database, Redis or change bus: the store is the one given.
  const platform = { contract, config, changes: { subscribe() {} } } as unknown as Parameters<typeof profilesDeps>[0];
  const service = profilesService(profilesDeps(platform, store));
  const app = new Koa();
  app.silent = true;
  app.use(requestId);
  app.use(contractPipeline([service as never], { logger, responseValidation: 'strict' }));
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const client = createClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`,
    fetch: call,
  });
  return { client, logged };
}

const unreachable = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432'));
const failingStore: ProfilesStore = {
  findProfile: unreachable,
  saveProfiles: unreachable,
  countProfiles: unreachable,
  readAvatarImage: unreachable,
  searchByVerifiedAccount: unreachable,
  findActiveKey: unreachable,
  createApiKey: unreachable,
  revokeApiKey: unreachable,
  listApiKeys: unreachable,
};

describe('a store failure', () => {
  it('is logged once with its cause, and the caller learns nothing of it', async () => {
    const { client, logged } = await serveWith(failingStore);
    const result = await getProfileById({ client, path: { profileIdentifier: 'alex' } });
    expect(result.response.status).toBe(500);
    expect(result.error).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(JSON.stringify(result.error)).not.toMatch(INTERNALS);
    const errors = logged.filter((line) => (line.level as number) >= 50);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('ECONNREFUSED 10.0.0.5:5432');
  });

  it('while checking a key is a 500 too, never a silent downgrade to anonymous', async () => {
    const { client, logged } = await serveWith(failingStore);
    const key = issueApiKey().key;
    const result = await getProfileById({ client, path: { profileIdentifier: 'alex' }, auth: key });
    expect(result.response.status).toBe(500);
    expect(result.error).toEqual({ error: 'Internal server error', code: 'internal_error' });
    const errors = logged.filter((line) => (line.level as number) >= 50);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(logged)).not.toContain(key);
  });
});
