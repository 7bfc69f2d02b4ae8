import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectFetch } from '../../support/inject.js';
import { apart, leastLongestSlice } from '../../support/slices.js';
import { insertPosts, postRow, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Pathological searches: 100 posts of 65,000 characters by one author, and
 * searches for 199 × `a` and a `b` (every post holds it: each ends in
 * `…aab`, the most a post can make each search check).
 *
 * Issue 42, item 3: before the index, one such search held the event loop
 * for seconds. Issue 52, item 11: the flood's bound was a wall-clock one (the
 * median `/healthz` probe under 100 ms), which a loaded machine broke; now it
 * is the longest slice of this thread's CPU time while 50 searches from 50
 * addresses run (`longestSlice`: the server runs in this process, and the
 * answers are checked against the contract only afterwards).
 *
 * Issue 52, item 6: search turns were first come, first served, so one
 * address sending 15 searches at once held the line and every other caller
 * waited behind them all (or was answered 503). Now each address has at most
 * one place in the line (`fairTurns`: callers take turns round robin, a
 * caller's further searches wait behind its own): another address's search
 * waits behind at most two of the flooder's (the one running and the one
 * holding its place).
 */
const POSTS = 100;
const BOUND_MS = 100;
const SEARCH = `${'a'.repeat(199)}b`;

let harness: PublishingTestServer;
beforeAll(async () => {
  // As in production (decisions/response-validation-off-in-production.md): the test checks the answers itself, after the measure.
  harness = await startPublishing({ RESPONSE_VALIDATION: 'off' });
  const content = `${'a'.repeat(64_999)}b`;
  await insertPosts(
    harness,
    Array.from({ length: POSTS }, (_, i) =>
      postRow({ id: 9000 + i, slug: `flood-${i}`, author_id: 3, title: `Flood ${i}`, content }),
    ),
  );
}, 120_000);
afterAll(() => harness?.close());

const searchPath = (search: string) => `/rest/v1.1/sites/1/posts/?search=${search}&number=1`;

/** A search from `address` (plain: its answer is checked against the contract by the caller, after the measure). */
async function search(address: string, text = SEARCH) {
  const response = await injectFetch(harness.server.server, { remoteAddress: address })(
    `${harness.server.url}${searchPath(text)}`,
  );
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    headers: response.headers,
    body: await response.text(),
  };
}

/** Each answer is a list (checked against the contract) or a 503 saying when to come back. */
function expectAnsweredOrBusy(answers: Awaited<ReturnType<typeof search>>[]) {
  for (const answer of answers) {
    expect([200, 503]).toContain(answer.status);
    if (answer.status === 503) expect(answer.retryAfter).not.toBeNull();
    harness.checker.check(
      'GET',
      new URL(`${harness.server.url}${searchPath(SEARCH)}`),
      answer.status,
      answer.headers,
      answer.body,
    );
  }
}

describe('a flood of pathological searches', () => {
  it(`holds the event loop under ${BOUND_MS} ms of CPU at a time while 50 searches from 50 addresses run`, async () => {
    // One answer checked against the contract: the search finds every one of the posts.
    const first = await harness.call(`${harness.server.url}${searchPath(SEARCH)}`);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { found: number }).found).toBe(POSTS);

    // The least of up to three measures (`leastLongestSlice`): what the bound forbids (before the index, one such search
    // held the loop for seconds) exceeds it in every measure.
    const { result: answers, longestMs } = await leastLongestSlice(
      () => apart(50, (i) => search(`198.51.100.${i + 1}`)),
      BOUND_MS,
    );
    console.log(
      `flood: 50 searches, ${answers.filter((a) => a.status === 200).length} answered 200; longest slice ${longestMs.toFixed(1)} ms of CPU`,
    );
    expectAnsweredOrBusy(answers);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    expect(longestMs).toBeLessThan(BOUND_MS);
  }, 120_000);

  it('answers another address while one address (an IPv6 /64) sends 15 searches at once, whose others wait their turns behind', async () => {
    // The flooder moves within its IPv6 /64, as a subscriber handed one can: one caller all the same.
    let floodAnswered = 0;
    const flood = Array.from({ length: 15 }, (_, i) =>
      search(`2001:db8:7:1::${(i + 1).toString(16)}`).then((answer) => {
        if (answer.status === 200) floodAnswered++;
        return answer;
      }),
    );
    // The other address asks once the flood's first answer is back: by then its 15 searches are all waiting.
    await Promise.race(flood);
    const answeredBefore = floodAnswered;
    const other = await search('203.0.113.7');
    const floodAnsweredMeanwhile = floodAnswered - answeredBefore;
    const answers = await Promise.all(flood);
    expectAnsweredOrBusy([...answers, other]);
    expect(other.status).toBe(200);
    // In the line it waits behind the flooder's running search and its one waiting search at most. It reaches the line
    // only after its own steps before the search (the credential, the site: store reads), and on a loaded machine
    // (`test:repeat --burn 4`, PostgreSQL starved of CPU) one or two more of the flooder's searches finished first:
    // hence 4, not 2. First come, first served, it would wait behind the 13 still waiting (or past its budget: a 503).
    expect(floodAnsweredMeanwhile).toBeLessThanOrEqual(4);
    // Each of the flooder's searches was answered in its turn or, past the budget, refused saying when to come back
    // (checked above); the order of turns is fairTurns' own test (test/platform/ops/fair-turns.test.ts).
  }, 120_000);
});
