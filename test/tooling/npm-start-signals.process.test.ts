import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/tools.js';
import { freePort } from '../support/processes.js';

/**
 * `npm start` as the README says it, then `kill <pid of npm start>`: the
 * server must leave its port. npm runs the script under `sh -c`, which a
 * SIGTERM ends without passing it on, so the start script stops the server
 * when its parent goes (`scripts/start.mjs`). Builds what is stale first,
 * as `npm start` does.
 */
const scratch = mkdtempSync(join(tmpdir(), 'npm-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function until(condition: () => Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 200));
}

describe('kill <pid of npm start>', () => {
  it('frees the port: the server stops with npm', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: projectRoot,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: `sqlite:${join(scratch, 'app.db')}`,
        NODE_ENV: 'development',
      },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    try {
      await until(() => listening(port));
      npm.kill('SIGTERM');
      await exited;
      await until(async () => !(await listening(port)));
      expect(await listening(port)).toBe(false);
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 300_000);
});
