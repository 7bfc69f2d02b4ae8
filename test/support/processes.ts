import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, projectRoot } from '../../scripts/tools.js';

export { freePort };

/**
 * The command that runs one of the project's entry points as its own
 * process: the JavaScript that the test run's global setup bundled from
 * `src/main.ts` or `src/admin/cli.ts` (`.tmp/<name>.mjs`, built once per
 * run), so a process starts in a fraction of a second instead of compiling
 * TypeScript at every start.
 */
export const entryPoint = (name: 'main' | 'admin'): [string, string[]] => [
  process.execPath,
  [join(projectRoot, '.tmp', `${name}.mjs`)],
];

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Log lines so far (JSON, one per line). */
  lines: string[];
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/**
 * Starts the server as a separate process and waits until `/healthz`
 * answers: `src/main.ts` as bundled for this run (see `entryPoint`), or
 * `main`, a compiled entry run by node.
 */
export async function startProcess(
  env: Record<string, string>,
  options: { main?: string; startupMs?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const [command, args] = options.main
    ? [process.execPath, ['--enable-source-maps', options.main]]
    : entryPoint('main');
  const child = spawn(command, args, {
    cwd: projectRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  let up = false;
  const deadline = Date.now() + (options.startupMs ?? 30_000);
  while (Date.now() < deadline && !up && child.exitCode === null) {
    // A connection of its own each time, read to the end and closed, so no test later reuses a polling connection.
    up = await fetch(`${base}/healthz`, { headers: { connection: 'close' } }).then(
      async (res) => (await res.arrayBuffer(), true),
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 100));
  }
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`server did not start:\n${lines.join('\n')}`);
  }
  return {
    base,
    child,
    lines,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs the admin command line as its own process against a store (`env`); never throws, resolves with its exit status and output. */
export function adminProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const [command, entry] = entryPoint('admin');
    const child = spawn(command, [...entry, ...args], {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the admin command line against a store and returns its stdout; rejects with its stderr when it fails. */
export async function runAdmin(args: string[], env: Record<string, string>): Promise<string> {
  const { code, stdout, stderr } = await adminProcess(args, env);
  if (code !== 0) throw new Error(`admin ${args.join(' ')}: ${stderr}`);
  return stdout;
}

/** The last non-empty line of a command's output (where the admin CLI prints a new key or token). */
export const lastLine = (output: string) => output.trim().split('\n').at(-1)!.trim();
