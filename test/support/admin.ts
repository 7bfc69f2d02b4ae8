import { format } from 'node:util';
import type { Kysely } from 'kysely';
import { vi } from 'vitest';
import type { Database } from '../../src/app.js';
import { runAdmin } from '../../src/admin/program.js';

export interface AdminOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the admin command line in this process, with the commands and exit
 * statuses of `npm run admin`, on `db` (a test server's own store), and
 * returns what it printed. Starting the command line as a process is proved
 * by a few tests of each admin suite (`runAdmin` in processes.ts); this
 * keeps the many other cases from paying a process start each.
 */
export async function adminInProcess(db: Kysely<Database>, ...args: string[]): Promise<AdminOutcome> {
  let stdout = '';
  let stderr = '';
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    stdout += `${format(...parts)}\n`;
  });
  try {
    const code = await runAdmin(args, async () => db, {
      writeOut: (text) => (stdout += text),
      writeErr: (text) => (stderr += text),
    });
    return { code, stdout, stderr };
  } finally {
    log.mockRestore();
  }
}
