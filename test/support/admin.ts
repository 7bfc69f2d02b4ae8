import { format } from 'node:util';
import type { Kysely } from 'kysely';
import { vi } from 'vitest';
import type { Database } from '../../src/app.js';
import { runAdmin } from '../../src/admin/program.js';
import { MIN_PASSWORD_COST } from '../../src/services/developer/domain/password.js';

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
 *
 * A password the command sets is hashed at the deployments' floor
 * (`MIN_PASSWORD_COST`, 8 times cheaper than the default) unless the test
 * set `DEVELOPER_PASSWORD_COST`: the command's cost is the setting's, which
 * the processes' tests read as deployments do
 * (decisions/test-password-cost.md).
 */
export async function adminInProcess(db: Kysely<Database>, ...args: string[]): Promise<AdminOutcome> {
  let stdout = '';
  let stderr = '';
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    stdout += `${format(...parts)}\n`;
  });
  const cost = process.env.DEVELOPER_PASSWORD_COST;
  process.env.DEVELOPER_PASSWORD_COST = cost ?? String(MIN_PASSWORD_COST);
  try {
    const code = await runAdmin(args, async () => db, {
      writeOut: (text) => (stdout += text),
      writeErr: (text) => (stderr += text),
    });
    return { code, stdout, stderr };
  } finally {
    if (cost === undefined) delete process.env.DEVELOPER_PASSWORD_COST;
    else process.env.DEVELOPER_PASSWORD_COST = cost;
    log.mockRestore();
  }
}
