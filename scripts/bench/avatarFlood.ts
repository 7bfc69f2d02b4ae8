import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The avatar flood of the abuse report: `clients` loops asking for
 * `/avatar/<random hash>?d=identicon&s=2048` for `seconds`, while the
 * server's resident memory (its own process, read from /proc) is sampled.
 * Used by `npm run bench:avatars` and by test/services/profiles/avatar-flood.test.ts.
 */
export interface FloodResult {
  answers: Record<number, number>;
  /** Resident memory in MiB: before, highest during, and after `settleMs`. */
  rss: { start: number; peak: number; after: number };
}

/** Resident set size of a process in MiB (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export async function avatarFlood(options: {
  base: string;
  pid: number;
  clients?: number;
  seconds?: number;
  settleMs?: number;
  size?: number;
}): Promise<FloodResult> {
  const { base, pid, clients = 4, seconds = 5, settleMs = 3000, size = 2048 } = options;
  const answers: Record<number, number> = {};
  const start = rssMiB(pid);
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  const until = Date.now() + seconds * 1000;
  const client = async () => {
    while (Date.now() < until) {
      const status = await fetch(`${base}/avatar/${randomBytes(32).toString('hex')}?d=identicon&s=${size}`).then(
        async (res) => (await res.arrayBuffer(), res.status),
        () => 0,
      );
      answers[status] = (answers[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  peak = Math.max(peak, rssMiB(pid));
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  clearInterval(sampler);
  return { answers, rss: { start, peak, after: rssMiB(pid) } };
}
