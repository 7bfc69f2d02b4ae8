import { spawn } from 'node:child_process';
import { freePort, projectRoot, quietToolEnv } from '../../scripts/tools.js';

/** A running `prism proxy --errors` in front of an upstream. */
export interface PrismProxy {
  /** Base URL of the proxy; Prism serves the contract's paths without the server URL's prefix. */
  base: string;
  /** What Prism logged (warnings and errors). */
  output: string[];
  stop(): void;
}

/**
 * Starts Prism's validating proxy for one contract (telemetry off, an
 * ephemeral port): it checks each request against the contract before
 * forwarding it to `upstream` (which must include the server URL's prefix,
 * e.g. `http://127.0.0.1:PORT/v3`), and each answer after; `--errors` turns
 * a violation into Prism's own problem+json (422 for a request, 500 for an
 * answer). Resolves once the proxy answers.
 */
export async function startPrismProxy(contractFile: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const child = spawn(
    `${projectRoot}node_modules/.bin/prism`,
    ['proxy', '--errors', '--cors=false', '-v', 'warn', '-h', '127.0.0.1', '-p', String(port), contractFile, upstream],
    { cwd: projectRoot, env: quietToolEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const stop = () => {
    // Prism runs under a shell wrapper on some installs: end the whole group it leads.
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    const up = await fetch(`${base}/`, { method: 'OPTIONS' }).then(
      () => true,
      () => false,
    );
    if (up) return { base, output, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`prism proxy for ${contractFile} did not start:\n${output.join('')}`);
}

/** True when an answer is Prism's own verdict that the request or the answer breaks the contract. */
export const isPrismViolation = (status: number, headers: Headers) =>
  (status === 422 || status === 500) && (headers.get('content-type') ?? '').startsWith('application/problem+json');
