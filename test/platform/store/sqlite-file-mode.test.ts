// @store-independent
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The SQLite store holds password hashes, key hashes and every profile: the
 * database file and its WAL companions are readable by the server's user
 * only (mode 0600), whatever the umask, and a file an earlier start left
 * wider is narrowed.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The permission bits others and the group have on a file. */
const othersBits = (file: string) => statSync(file).mode & 0o077;

describe('the SQLite file', () => {
  it('and its -wal and -shm are created owner-only', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mode-')), 'data', 'app.db');
    const umask = process.umask(0o022);
    try {
      server = await startServer({ DATABASE_URL: `sqlite:${file}` });
    } finally {
      process.umask(umask);
    }
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(othersBits(path)).toBe(0);
    expect(statSync(file).mode & 0o600).toBe(0o600);
  });

  it('left world-readable by an earlier start is narrowed', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mode-')), 'app.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    server = await startServer({ DATABASE_URL: `sqlite:${file}` });
    expect(othersBits(file)).toBe(0);
    expect(othersBits(`${file}-wal`)).toBe(0);
  });
});
