import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { freePort, projectRoot, quietToolEnv } from '../../scripts/tools.js';
import { contractChecker } from './contract.js';

/** A running `npm run mock` (scripts/mock.mjs, one Prism in its process) on a free port. */
export interface RunningMock {
  /** Its origin, `http://127.0.0.1:PORT`: what its links and avatar URLs are written at. */
  origin: string;
  stop(): void;
}

/**
 * Starts `npm run mock` with these variables on a free port (from its build
 * in `dist/mock`, which the global setup keeps fresh); resolves once it
 * answers. A test file starts one and shares it between its tests.
 */
export async function startMock(env: Record<string, string> = {}): Promise<RunningMock> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['scripts/mock.mjs'], {
    cwd: projectRoot,
    env: { ...quietToolEnv, ...env, MOCK_PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  for (let i = 0; i < 600; i++) {
    const up = await fetch(`${origin}/v3/profiles/alex`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    origin,
    stop: () => {
      // The mock leads its own process group (detached): end the group.
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    },
  };
}

/** One answer of the mock, checked against the contracts and free of Prism's violation report. */
export interface MockAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: Buffer;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A call to the mock at production's path (prefix + path), its answer checked against the contracts. */
export async function callMock(
  origin: string,
  prefix: string,
  path: string,
  init: RequestInit = {},
): Promise<MockAnswer> {
  const res = await fetch(`${origin}${prefix}${path}`, init);
  const body = Buffer.from(await res.arrayBuffer());
  const text = body.toString('utf8');
  (await contractChecker()).check(
    init.method ?? 'GET',
    new URL(`http://mock${prefix}${path}`),
    res.status,
    res.headers,
    text,
    body,
  );
  if (res.status < 400) expect(res.headers.get('sl-violations'), `${prefix}${path}`).toBeNull();
  return { status: res.status, headers: res.headers, text, body, json: () => JSON.parse(text) };
}
