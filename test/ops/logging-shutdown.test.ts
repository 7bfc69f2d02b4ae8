import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/tools.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Starts `src/main.ts` as a real process and collects its log lines. */
async function startProcess(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(`${projectRoot}node_modules/.bin/tsx`, ['src/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${base}/healthz`).then(() => true, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, lines, exited };
}

describe('a real process', () => {
  it('logs JSON lines with a request id and never a credential, then shuts down cleanly on SIGTERM', async () => {
    const proc = await startProcess({ DATABASE_URL: `sqlite:${join(dir, 'ops.db')}` });
    const secret = 'pk_supersecretvalue1234567890';
    const res = await fetch(`${proc.base}/v3/profiles/alex?token=${secret}`, {
      headers: { Authorization: `Bearer ${secret}`, 'X-Request-Id': 'trace-42' },
    });
    await res.arrayBuffer();
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);

    const entries = proc.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const access = entries.find((entry) => entry.msg === 'request' && entry.requestId === 'trace-42');
    expect(access).toMatchObject({ method: 'GET', path: '/v3/profiles/alex', status: res.status, operationId: 'getProfileById' });
    expect(proc.lines.join('\n')).not.toContain(secret);
    expect(entries.some((entry) => entry.msg === 'stopped')).toBe(true);
  });

  it('refuses to start on a bad setting and says which', async () => {
    const proc = spawn(`${projectRoot}node_modules/.bin/tsx`, ['src/main.ts'], {
      cwd: projectRoot,
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => proc.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT must be');
  });
});
