import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../../scripts/bench/statements.js';
import { list, read, savePost, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Post objects rendered for callers without a token are kept by the
 * instance under the store's change mark (SQLite): a second anonymous read
 * of a post reads nothing around it, and any write (through the API, or
 * straight into the store by another connection) is seen by the next read.
 * On PostgreSQL nothing is kept, and the same holds.
 */
let harness: PublishingTestServer;
let editor: string;
const onSqlite = () => harness.server.config.databaseUrl.startsWith('sqlite:');

beforeAll(async () => {
  // A file, not memory: another connection writes to it below (as the admin command line would).
  const url = process.env.TEST_DATABASE_URL?.startsWith('sqlite:')
    ? `sqlite:${join(mkdtempSync(join(tmpdir(), 'render-cache-')), 'app.db')}`
    : undefined;
  harness = await startPublishing({ SITE_CACHE_MS: '600000', ...(url ? { DATABASE_URL: url } : {}) });
  editor = await harness.tokenFor('editor');
});
afterAll(() => harness?.close());

/** The statements that read what surrounds a post (its author, terms, attachments, counts, metadata). */
async function relationReads(request: () => Promise<{ status: number }>): Promise<string[]> {
  const seen: string[] = [];
  const stop = recordStatements((text) => seen.push(text));
  try {
    expect((await request()).status).toBe(200);
  } finally {
    stop();
  }
  return seen.filter((text) => /\bfrom\s+"?(users|post_terms|attachments|post_meta)"?/i.test(text));
}

describe('post objects kept for callers without a token', () => {
  it('a second anonymous read of a post reads nothing around it (SQLite); each read does on PostgreSQL', async () => {
    await read(harness, undefined, 1, 108);
    const second = await relationReads(() => read(harness, undefined, 1, 108));
    if (onSqlite()) expect(second, second.join('\n')).toEqual([]);
    else expect(second.length).toBeGreaterThanOrEqual(4);
    // A caller with a token is rendered every time: its rights and likes are its own.
    const withToken = await relationReads(() => read(harness, editor, 1, 108));
    expect(withToken.length).toBeGreaterThanOrEqual(4);
  });

  it('a page of posts read again renders none of them again, and reads only their IDs (SQLite)', async () => {
    await list(harness, undefined, 1, { number: 5 });
    const statements: string[] = [];
    const stop = recordStatements((text) => statements.push(text));
    try {
      expect((await list(harness, undefined, 1, { number: 5 })).status).toBe(200);
    } finally {
      stop();
    }
    const relations = statements.filter((text) => /\bfrom\s+"?(users|post_terms|attachments|post_meta)"?/i.test(text));
    const fullRows = statements.filter((text) => /trash_previous_status/.test(text));
    if (onSqlite()) {
      expect(relations, statements.join('\n')).toEqual([]);
      expect(fullRows, statements.join('\n')).toEqual([]);
    } else {
      expect(relations.length).toBeGreaterThanOrEqual(4);
      expect(fullRows).toHaveLength(1);
    }
  });

  it('an edit through the API is seen by the next anonymous read and list', async () => {
    const before = await read(harness, undefined, 1, 108);
    const listed = await list(harness, undefined, 1, { number: 100 });
    expect(listed.body.posts.find((post: { ID: number }) => post.ID === 108)?.title).toBe(before.body.title);
    const title = `Edited ${Date.now()}`;
    expect((await savePost(harness, editor, 108, { title })).status).toBe(200);
    const after = await read(harness, undefined, 1, 108);
    expect(after.body.title).toBe(title);
    expect(after.body.modified).not.toBe(before.body.modified);
    const relisted = await list(harness, undefined, 1, { number: 100 });
    expect(relisted.body.posts.find((post: { ID: number }) => post.ID === 108)?.title).toBe(title);
  });

  it('a change written straight into the store by another connection is seen by the next read', async () => {
    await read(harness, undefined, 1, 108);
    const title = `From elsewhere ${Date.now()}`;
    if (onSqlite()) {
      const other = new SqliteDatabase(harness.server.config.databaseUrl.slice('sqlite:'.length));
      try {
        other.prepare('update posts set title = ? where id = 108').run(title);
      } finally {
        other.close();
      }
    } else {
      await harness.server.built.db.updateTable('posts').set({ title }).where('id', '=', 108).execute();
    }
    expect((await read(harness, undefined, 1, 108)).body.title).toBe(title);
    const listed = await list(harness, undefined, 1, { number: 100 });
    expect(listed.body.posts.find((post: { ID: number }) => post.ID === 108)?.title).toBe(title);
  });

  it('a kept post answers every presentation: fields, pretty, the envelope and JSONP', async () => {
    const plain = await read(harness, undefined, 1, 108);
    const kept = await read(harness, undefined, 1, 108);
    expect(kept.body).toEqual(plain.body);
    expect((await read(harness, undefined, 1, 108, { fields: 'ID,title' })).body).toEqual({
      ID: 108,
      title: plain.body.title,
    });
    const base = `${harness.server.url}/rest/v1.1/sites/1/posts/108`;
    expect(JSON.parse(await (await harness.call(`${base}?pretty=true`)).text())).toEqual(plain.body);
    const enveloped = (await (await harness.call(`${base}?http_envelope=1`)).json()) as { code: number; body: unknown };
    expect(enveloped).toMatchObject({ code: 200, body: plain.body });
    const script = await (await harness.call(`${base}?callback=show`)).text();
    expect(JSON.parse(script.replace(/^\/\*\*\/show\(/, '').replace(/\);$/, ''))).toEqual(plain.body);
  });
});
