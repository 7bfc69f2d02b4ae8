import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/tools.js';
import { freePort } from '../support/processes.js';

/**
 * `npm start` and `npm run mock` as the README says them, then a signal to
 * the npm process, as a terminal's Ctrl-C (SIGINT), an IDE's stop button or
 * a harness (SIGINT or SIGTERM) sends it: npm passes it to its script's
 * process, which must stop and leave its port, and npm must end. npm runs a
 * script under `sh -c`, and a shell that waits for a command passes neither
 * signal on: the scripts `exec` node, so the signal reaches it. Builds what
 * is stale first, as the commands do. One start per command and signal.
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

const commands = {
  'npm start': (port: number) => ({
    args: ['start'],
    env: { PORT: String(port), DATABASE_URL: `sqlite:${join(scratch, `app-${port}.db`)}`, NODE_ENV: 'development' },
  }),
  'npm run mock': (port: number) => ({ args: ['run', 'mock'], env: { MOCK_PORT: String(port) } }),
};

describe.each(Object.keys(commands) as (keyof typeof commands)[])('%s', (command) => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops on %s to the npm process: the port is freed and npm ends',
    async (signal) => {
      const port = await freePort();
      const { args, env } = commands[command](port);
      const npm = spawn('npm', args, {
        cwd: projectRoot,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let printed = '';
      let warned = '';
      npm.stdout.on('data', (chunk: Buffer) => (printed += chunk));
      npm.stderr.on('data', (chunk: Buffer) => (warned += chunk));
      const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
      try {
        await until(() => listening(port));
        // Once it answers, it says where to go.
        const opened =
          command === 'npm start'
            ? `Open http://127.0.0.1:${port}/developers in a browser`
            : `http://127.0.0.1:${port}`;
        await until(async () => printed.includes(opened));
        // No deprecation warning at start (the mock's bundle once required Node's punycode).
        expect(warned).not.toContain('DeprecationWarning');
        npm.kill(signal);
        await exited;
        await until(async () => !(await listening(port)));
        expect(await listening(port)).toBe(false);
      } finally {
        if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      }
    },
    300_000,
  );
});

describe('the mock left by its parent', () => {
  it('stops when the shell it ran under is killed without passing a signal on', async () => {
    const port = await freePort();
    const shell = spawn('sh', ['-c', `node scripts/mock.mjs; true`], {
      cwd: projectRoot,
      env: { ...process.env, MOCK_PORT: String(port) },
      stdio: 'ignore',
    });
    try {
      await until(() => listening(port));
      shell.kill('SIGKILL');
      await until(async () => !(await listening(port)));
      expect(await listening(port)).toBe(false);
    } finally {
      if (shell.exitCode === null && shell.signalCode === null) shell.kill('SIGKILL');
    }
  }, 300_000);
});
