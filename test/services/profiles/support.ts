import sharp from 'sharp';
import { createClient, type Client } from '../../../generated/profiles/client/index.js';
import { getProfileById } from '../../../generated/profiles/sdk.gen.js';
import { issueApiKey } from '../../../src/accounts/apiKey.js';
import { createKyselyProfilesStore } from '../../../src/services/profiles/store/kyselyProfilesStore.js';
import type { ProfilesStore } from '../../../src/services/profiles/domain/profilesStore.js';
import { contractChecker, contractFetch, type ContractChecker } from '../../support/contract.js';
import { injectFetch } from '../../support/inject.js';
import { startServer, type TestServer } from '../../support/server.js';

/** A server with the profiles demo data, its store, and an SDK client whose every answer is contract-checked. */
export interface ProfilesTestServer {
  server: TestServer;
  store: ProfilesStore;
  client: Client;
  checker: ContractChecker;
  /** A plain `fetch` that checks every answer against the contract. */
  call: typeof fetch;
  /** Issues a key through the store, as `keys create` does. */
  issueKey(email?: string, app?: string): Promise<{ key: string; keyId: string }>;
  close(): Promise<void>;
}

/**
 * Starts a server with profiles alone (unless `env.SERVICES` says otherwise: the others cost a start and
 * are not what its tests are about). `call` and `client` hand their requests to the server without a socket
 * (`injectFetch`, as publishing's harness does), unless `options.wire`; the server listens all the same, at
 * `server.url`, for what is about the wire (a browser, the global `fetch`).
 */
export async function startProfiles(
  env: Record<string, string> = {},
  options: { wire?: boolean } = {},
): Promise<ProfilesTestServer> {
  const server = await startServer(env, { services: ['profiles'] });
  return harnessFor(server, options.wire ? fetch : injectFetch(server.server));
}

async function harnessFor(server: TestServer, send: typeof fetch): Promise<ProfilesTestServer> {
  const checker = await contractChecker();
  const call = contractFetch(checker, send);
  const store = createKyselyProfilesStore(server.built.db);
  return {
    server,
    store,
    checker,
    call,
    client: createClient({ baseUrl: `${server.url}/v3`, fetch: call }),
    async issueKey(email = 'developer@example.com', app = 'Test app') {
      const issued = issueApiKey();
      const { keyId } = await store.createApiKey({
        email,
        application: { name: app, description: '', websiteUrl: '' },
        key: { hash: issued.hash, displayPrefix: issued.displayPrefix },
      });
      return { key: issued.key, keyId };
    },
    close: () => server.close(),
  };
}

/** Looks a profile up through the generated SDK, with a key (`auth`) or raw headers, and returns status, body and headers. */
export async function lookup(
  harness: ProfilesTestServer,
  identifier: string,
  options: { key?: string; headers?: Record<string, string> } = {},
) {
  const result = await getProfileById({
    client: harness.client,
    path: { profileIdentifier: identifier },
    headers: options.headers,
    ...(options.key === undefined ? {} : { auth: options.key }),
  });
  const { response } = result;
  return {
    status: response.status,
    body: (result.data ?? result.error) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** An avatar answer: status, headers, body bytes and, for an image, its decoded pixels. */
export interface AvatarAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  image?: DecodedImage;
}

/** A decoded image: its size and the RGBA colour of a pixel. */
export interface DecodedImage {
  width: number;
  height: number;
  /** `[r, g, b, a]` of the pixel at (x, y). */
  pixel(x: number, y: number): [number, number, number, number];
}

/** Decodes a PNG (or any image sharp reads) to RGBA pixels. */
export async function decodeImage(bytes: Buffer): Promise<DecodedImage> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    pixel(x, y) {
      const at = (y * info.width + x) * 4;
      return [data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!];
    },
  };
}

/** `GET /avatar/<pathAndQuery>` (redirects not followed), checked against the contract; images are decoded. */
export async function fetchAvatar(
  harness: ProfilesTestServer,
  pathAndQuery: string,
  init: RequestInit = {},
): Promise<AvatarAnswer> {
  const response = await harness.call(`${harness.server.url}/avatar/${pathAndQuery}`, { redirect: 'manual', ...init });
  const bytes = Buffer.from(await response.arrayBuffer());
  const image =
    (response.headers.get('content-type') ?? '').startsWith('image/') && bytes.length
      ? await decodeImage(bytes)
      : undefined;
  return { status: response.status, headers: response.headers, bytes, ...(image ? { image } : {}) };
}

/** The fields only a caller with a valid key receives. */
export const KEYED_ONLY_FIELDS = [
  'timezone',
  'languages',
  'first_name',
  'last_name',
  'is_organization',
  'interests',
  'links',
  'contact_info',
  'payments',
  'gallery',
  'number_verified_accounts',
  'last_profile_edit',
  'registration_date',
] as const;

/** The last line of a command's output. */
export const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
