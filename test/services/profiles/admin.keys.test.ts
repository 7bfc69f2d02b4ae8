import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminInProcess } from '../../support/admin.js';
import { KEYED_ONLY_FIELDS, lastLine, lookup, startProfiles, type ProfilesTestServer } from './support.js';

/**
 * The `keys` commands of the admin command line, run in this process on the
 * test server's store (test/admin/cli.process.test.ts runs it as a process).
 */
let harness: ProfilesTestServer;
beforeAll(async () => {
  // A short key cache: a revocation shows on the server when its cache forgets the key (keys revoke, below).
  harness = await startProfiles({ API_KEY_CACHE_MS: '200' });
});
afterAll(() => harness?.close());

/** Runs an admin command on the test server's store. */
const admin = (...args: string[]) => adminInProcess(harness.server.built.db, ...args);

const KEY = /^pk_[A-Za-z0-9_-]{43}$/;
const keyIdIn = (stdout: string) => /key ([0-9a-f-]{36}),/.exec(stdout)?.[1];

describe('keys create --email EMAIL --app NAME', () => {
  let key: string;
  let keyId: string;
  let firstOutput: string;

  beforeAll(async () => {
    const { code, stdout } = await admin('keys', 'create', '--email', 'Dev@Example.com', '--app', 'Widget');
    expect(code).toBe(0);
    firstOutput = stdout;
    key = lastLine(stdout);
    keyId = keyIdIn(stdout)!;
  });

  it('creates the account and application and prints the new key alone on the last line', () => {
    expect(key).toMatch(KEY);
    expect(firstOutput).toMatch(/account dev@example\.com: created/);
    expect(firstOutput).toMatch(/application "Widget" \([0-9a-f-]{36}\): created/);
    expect(keyId).toBeDefined();
  });

  it('issues a key that works at once: the full profile', async () => {
    const { status, body } = await lookup(harness, 'alex', { key });
    expect(status).toBe(200);
    for (const field of KEYED_ONLY_FIELDS) expect(body).toHaveProperty(field);
  });

  it('stores only the key’s SHA-256 hash and a short display prefix', async () => {
    const rows = await harness.server.built.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(key.startsWith(rows[0]!.display_prefix)).toBe(true);
    expect(rows[0]!.display_prefix.length).toBeLessThanOrEqual(11);
    expect(JSON.stringify(await harness.server.built.db.selectFrom('api_keys').selectAll().execute())).not.toContain(
      key,
    );
  });

  it('reuses the account and the application of the same name, with a new, different key', async () => {
    const { code, stdout } = await admin('keys', 'create', '--email', 'dev@example.com', '--app', 'Widget');
    expect(code).toBe(0);
    expect(stdout).toMatch(/account dev@example\.com: existing/);
    expect(stdout).toMatch(/application "Widget" .*: existing/);
    expect(lastLine(stdout)).toMatch(KEY);
    expect(lastLine(stdout)).not.toBe(key);
    expect(stdout.match(/application "Widget" \(([0-9a-f-]{36})\)/)?.[1]).toBe(
      firstOutput.match(/application "Widget" \(([0-9a-f-]{36})\)/)?.[1],
    );
  });

  it('refuses a malformed email or website', async () => {
    const badEmail = await admin('keys', 'create', '--email', 'nope', '--app', 'Widget');
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toMatch(/--email must be an email address/);
    const badSite = await admin(
      'keys',
      'create',
      '--email',
      'dev@example.com',
      '--app',
      'Other',
      '--website',
      'ftp://x',
    );
    expect(badSite.code).toBe(1);
    expect(badSite.stderr).toMatch(/--website must be an http\(s\) URL/);
  });

  describe('keys list --email EMAIL', () => {
    it('lists the account’s keys with application, prefix and last use, never the keys themselves', async () => {
      await lookup(harness, 'alex', { key });
      // The use is written beside the request, not before its answer (apiKeys.ts): the listing shows it once
      // written, within a bound beyond a write on a loaded machine (`test:repeat --burn 4`).
      const { code, stdout } = await vi.waitFor(async () => {
        const listed = await admin('keys', 'list', '--email', 'dev@example.com');
        expect(Date.parse(listed.stdout.split('\n')[1]?.split('\t')[4] ?? '')).not.toBeNaN();
        return listed;
      }, 10_000);
      expect(code).toBe(0);
      expect(stdout).not.toContain(key);
      const lines = stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('KEY ID\tAPPLICATION\tPREFIX\tCREATED\tLAST USED\tSTATUS');
      expect(lines).toHaveLength(3);
      const [id, application, prefix, created, lastUsed, status] = lines[1]!.split('\t');
      expect(id).toBe(keyId);
      expect(application).toBe('Widget');
      expect(prefix).toBe(`${key.slice(0, 11)}…`);
      expect(Date.parse(created!)).not.toBeNaN();
      expect(Date.parse(lastUsed!)).not.toBeNaN();
      expect(status).toBe('active');
      expect(lines[2]!.split('\t')[4]).toBe('never');
    });

    it('fails for an email with no account', async () => {
      const { code, stderr } = await admin('keys', 'list', '--email', 'nobody@example.com');
      expect(code).toBe(1);
      expect(stderr).toMatch(/no account with email nobody@example\.com/);
    });
  });

  describe('keys revoke KEY_ID', () => {
    it('stops the key working on the running server within API_KEY_CACHE_MS (the command line writes to the store, not to the server)', async () => {
      expect((await lookup(harness, 'alex', { key })).body).toHaveProperty('links');
      const cachedUntil = Date.now() + harness.server.config.profiles.apiKeyCacheMs;
      const { code, stdout } = await admin('keys', 'revoke', keyId);
      expect(code).toBe(0);
      expect(stdout).toContain(`key ${keyId} revoked`);
      // The server may trust what it read of the key until its cache entry ends (see docs/profiles.md, API_KEY_CACHE_MS).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, cachedUntil - Date.now()) + 50));

      const { status, body } = await lookup(harness, 'alex', { key });
      expect(status).toBe(200);
      for (const field of KEYED_ONLY_FIELDS) expect(body).not.toHaveProperty(field);

      const listed = await admin('keys', 'list', '--email', 'dev@example.com');
      expect(listed.stdout).toMatch(new RegExp(`${keyId}\\t.*\\trevoked \\d{4}-`));
    });

    it('says so for a key already revoked, and fails for an unknown id', async () => {
      expect((await admin('keys', 'revoke', keyId)).stdout).toContain('was already revoked');
      const unknown = await admin('keys', 'revoke', '00000000-0000-0000-0000-000000000000');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/no key with id/);
    });
  });
});
