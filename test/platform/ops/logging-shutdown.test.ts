// @store-independent
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/tools.js';
import { entryPoint, startProcess } from '../../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a real process', () => {
  it('logs JSON lines with a request id and never a credential, then shuts down cleanly on SIGTERM', async () => {
    const proc = await startProcess({ DATABASE_URL: `sqlite:${join(dir, 'ops.db')}` });
    const secret = 'pk_supersecretvalue1234567890';
    const res = await fetch(`${proc.base}/v3/profiles/alex?token=${secret}`, {
      headers: { Authorization: `Bearer ${secret}`, 'X-Request-Id': 'trace-42' },
    });
    await res.arrayBuffer();
    expect(await proc.stop()).toBe(0);

    const entries = proc.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const access = entries.find((entry) => entry.msg === 'request' && entry.requestId === 'trace-42');
    expect(access).toMatchObject({
      method: 'GET',
      path: '/v3/profiles/alex',
      status: res.status,
      operationId: 'getProfileById',
    });
    expect(proc.lines.join('\n')).not.toContain(secret);
    expect(entries.some((entry) => entry.msg === 'stopped')).toBe(true);
  }, 60_000);

  it('refuses to start on a bad setting and says which', async () => {
    const [command, args] = entryPoint('main');
    const proc = spawn(command, args, {
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
