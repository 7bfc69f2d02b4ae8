import { afterAll, describe, expect, it } from 'vitest';
import { contractChecker } from '../support/contract.js';
import { issueCredential } from '../support/credentials.js';
import { sendRequest, type WireRequest } from '../support/http.js';
import { startServer } from '../support/server.js';
import { expectContractAnswer } from '../robustness/settings.js';

/**
 * Every request input is bounded in its contract (`npm run lint:owasp`), and
 * the server holds each input to its bound: a value just past it is the
 * service's own error, never a 500 and never served. A bound the contract
 * takes from the server itself says so: a body over 64 kB is `413`, a
 * request head over 16 KiB is `431`, each in the service's error format.
 */
const server = await startServer({
  RATE_LIMIT_ANONYMOUS: '1000000',
  RATE_LIMIT_KEYED: '1000000',
  RATE_LIMIT_AVATARS: '1000000',
  RATE_LIMIT_QR_CODES: '1000000',
  RATE_LIMIT_PUBLISHING_READS: '1000000',
});
afterAll(() => server.close());
const checker = await contractChecker();
const publishing = await issueCredential.publishing!(server);
const developer = await issueCredential.developer!(server);
const json = { 'content-type': 'application/json' };
const hash = 'a'.repeat(64);

async function send(wire: WireRequest) {
  const answer = await sendRequest(server.url, wire);
  expectContractAnswer(checker, wire, answer);
  return { ...answer, body: answer.text ? (JSON.parse(answer.text) as Record<string, string>) : {} };
}

const get = (path: string, headers: Record<string, string> = {}): WireRequest => ({ method: 'GET', path, headers });
const post = (path: string, body: unknown, headers: Record<string, string>): WireRequest => ({
  method: 'POST',
  path,
  headers: { ...json, ...headers },
  body: JSON.stringify(body),
});

describe("a value past its bound is the service's own 400, naming the input", () => {
  const cases: [string, WireRequest, string][] = [
    ['profiles: avatar `s` past int32', get(`/avatar/${hash}?s=2147483648`), 'parameter s'],
    ['profiles: avatar `size` over 2048', get(`/avatar/${hash}?size=2049`), 'parameter size'],
    ['profiles: avatar `r` over 2 characters', get(`/avatar/${hash}?r=pgx`), 'parameter r'],
    ['profiles: avatar `rating` over 2 characters', get(`/avatar/${hash}?rating=ggg`), 'parameter rating'],
    ['profiles: QR `version` over 2 characters', get(`/v3/qr-code/${hash}?version=100`), 'parameter version'],
    ['profiles: QR `size` past int32', get(`/v3/qr-code/${hash}?size=2147483648`), 'parameter size'],
    // Any text is a `number` there (PHP's `(int)`, then the default): only its length is bounded.
    [
      'publishing: list `number` over 64 characters',
      get(`/rest/v1.1/sites/1/posts?number=${'x'.repeat(65)}`),
      'parameter number',
    ],
    ['publishing: list `offset` below int32', get('/rest/v1.1/sites/1/posts?offset=-2147483649'), 'parameter offset'],
    ['publishing: list `page` below int32', get('/rest/v1.1/sites/1/posts?page=-2147483649'), 'parameter page'],
    ['publishing: list `author` past int32', get('/rest/v1.1/sites/1/posts?author=2147483648'), 'parameter author'],
    [
      'publishing: counts `author` past int32',
      get('/rest/v1.1/sites/1/post-counts/post?author=2147483648'),
      'parameter author',
    ],
    ['publishing: `post_ID` past 2^53 - 1', get('/rest/v1.1/sites/1/posts/9007199254740992'), 'parameter post_ID'],
    ['publishing: likes `number` over 100', get('/rest/v1.1/sites/1/posts/1/likes?number=101'), 'parameter number'],
    [
      'publishing: a body flag past int32',
      post('/rest/v1.1/sites/1/posts/new', { title: 'x', sticky: 2147483648 }, publishing),
      'body field sticky',
    ],
    [
      'publishing: `menu_order` past int32',
      post('/rest/v1.1/sites/1/posts/new', { title: 'x', menu_order: 2147483648 }, publishing),
      'body field menu_order',
    ],
    [
      'publishing: a bulk post ID past 2^53 - 1',
      post('/rest/v1.1/sites/1/posts/delete', { post_ids: [9007199254740992] }, publishing),
      'body field post_ids',
    ],
    [
      "developer: a consent's site ID past 2^53 - 1",
      post(
        '/developer/v1/oauth/consents/anything',
        { approve: true, sites: [{ id: 9007199254740992, access: 'read' }] },
        developer,
      ),
      'body field sites',
    ],
  ];

  it.each(cases)('%s', async (_, wire, input) => {
    const answer = await send(wire);
    expect(answer.status).toBe(400);
    // Each service's own error format: publishing `{error, message}`, the others `{error, code}`.
    const message = wire.path.startsWith('/rest/') ? answer.body.message : answer.body.error;
    expect(message).toMatch(new RegExp(`^Invalid ${input}: `));
  });
});

describe('a bound the server itself sets', () => {
  it("publishing `content` and `excerpt` (65536 characters): a longer one is a body over 64 kB, 413 in publishing's format", async () => {
    for (const field of ['content', 'excerpt']) {
      const answer = await send(
        post('/rest/v1.1/sites/1/posts/new', { title: 'x', [field]: 'x'.repeat(65537) }, publishing),
      );
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({ error: 'payload_too_large', message: 'The request body is larger than 64kb' });
    }
  });

  it("publishing flags and `context` (16384 characters): a longer value is a request head over 16 KiB, 431 in publishing's format", async () => {
    for (const name of ['pretty', 'http_envelope', 'context']) {
      const answer = await send(get(`/rest/v1.1/sites/1/posts/1?${name}=${'x'.repeat(16385)}`));
      expect(answer.status).toBe(431);
      expect(answer.body).toEqual({ error: 'invalid_input', message: 'Request headers are too large' });
    }
  });

  it("the seeds' and the real service's values stay accepted: avatar sizes, WordPress flags in any spelling", async () => {
    for (const query of ['s=2048', 'size=1', 'r=PG', 'rating=x'])
      expect((await send(get(`/avatar/${hash}?${query}&d=404`))).status).toBe(404);
    for (const query of ['pretty=1', 'pretty=true', 'http_envelope=T', `context=${'y'.repeat(1000)}`]) {
      const answer = await send(get(`/rest/v1.1/sites/1/posts?number=1&${query}`));
      expect(answer.status).toBe(200);
    }
  });
});
