import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPosts, postRow, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Issue 42, item 3: 100 posts of 65,000 characters by one author, then
 * searches for 199 × `a` and a `b` (every post holds it: each ends in
 * `…aab`, the most a post can make each search check). Before the index,
 * one such search held the event loop for seconds and `/healthz` waited
 * beside it. Now 50 at once leave `/healthz` answering within 100 ms.
 *
 * The measurement: `/healthz` is asked one probe after another while the
 * 50 searches are in flight (at least `PROBES`), and the slowest probe is
 * held to the bound. The server runs in this process, so the probes' times
 * include this test's own client work (reading 50 answers): the bound is
 * the issue's 100 ms, about ten times the slowest probe seen on a loaded
 * two-core machine (docs/performance.md).
 */
const POSTS = 100;
const SEARCHERS = 50;
const PROBES = 10;
const BOUND_MS = 100;

let harness: PublishingTestServer;
beforeAll(async () => {
  harness = await startPublishing();
  const content = `${'a'.repeat(64_999)}b`;
  await insertPosts(
    harness,
    Array.from({ length: POSTS }, (_, i) => postRow({ id: 9000 + i, slug: `flood-${i}`, author_id: 3, title: `Flood ${i}`, content })),
  );
}, 120_000);
afterAll(() => harness?.close());

describe('a flood of pathological searches', () => {
  it(`leaves /healthz under ${BOUND_MS} ms while ${SEARCHERS} searches over ${POSTS} posts of 65,000 characters run`, async () => {
    const { url } = harness.server;
    const search = `${'a'.repeat(199)}b`;
    const searchUrl = `${url}/rest/v1.1/sites/1/posts/?search=${search}&number=1`;
    // One answer checked against the contract: the search finds every one of the posts.
    const first = await harness.call(searchUrl);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { found: number }).found).toBe(POSTS);

    let inFlight = SEARCHERS;
    const started = performance.now();
    const searches = Array.from({ length: SEARCHERS }, async () => {
      // Plain fetch: checking 50 answers in this process would hold the event loop the server shares.
      const response = await fetch(searchUrl);
      await response.arrayBuffer();
      inFlight--;
      return { status: response.status, retryAfter: response.headers.get('retry-after') };
    });
    const probes: number[] = [];
    while (inFlight > 0 || probes.length < PROBES) {
      const sent = performance.now();
      const health = await fetch(`${url}/healthz`);
      await health.arrayBuffer();
      probes.push(performance.now() - sent);
      if (performance.now() - sent > 100) console.log('SLOWPROBE at', (sent - started).toFixed(0), (performance.now() - sent).toFixed(0));
      expect(health.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const answers = await Promise.all(searches);
    const elapsed = performance.now() - started;
    const slowest = Math.max(...probes);
    const sorted = [...probes].sort((a, b) => a - b);
    console.log(
      `flood: ${SEARCHERS} searches in ${elapsed.toFixed(0)} ms (${answers.filter((a) => a.status === 200).length} answered 200); ` +
        `/healthz ${probes.length} probes: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`,
    );
    // Each search answers, or (over its budget) says the store is busy; none fails.
    for (const answer of answers) {
      expect([200, 503]).toContain(answer.status);
      if (answer.status === 503) expect(answer.retryAfter).not.toBeNull();
    }
    expect(slowest).toBeLessThan(BOUND_MS);
  }, 120_000);
});
