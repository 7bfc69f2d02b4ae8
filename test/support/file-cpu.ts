import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

/**
 * With `TEST_FILE_CPU` naming a file, each test file appends one JSON line
 * to it: its project, path, wall time and the CPU its worker spent on it,
 * and on the processes the worker started during it (servers, Chromium,
 * Prism), as far as they ended before the file did. vitest's durations
 * count waiting too, so on a machine the suite keeps busy they do not say
 * which file costs the CPU (docs/performance.md "The test suite").
 */
const out = process.env.TEST_FILE_CPU;
if (out) {
  // From before the file is imported (setup files run again for each file): its top-level servers count.
  const started = { cpu: process.cpuUsage(), wall: performance.now(), children: childrenCpuMs() };
  afterAll(() => {
    const cpu = process.cpuUsage(started.cpu);
    const line = {
      project: process.env.TEST_DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite',
      file: expect.getState().testPath?.slice(process.cwd().length + 1),
      pid: process.pid,
      wallMs: Math.round(performance.now() - started.wall),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      childrenMs: childrenCpuMs() - started.children,
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}

/** CPU of this process's ended children that it waited for (`cutime` + `cstime` of /proc/self/stat), in ms. */
function childrenCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}
