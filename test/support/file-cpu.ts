import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
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
/** The project this worker runs, and the test file's path in the project (`test/...`). */
const project = process.env.TEST_DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite';
const testFile = () => (expect.getState().testPath ?? 'unknown').slice(process.cwd().length + 1);
if (out) {
  // From before the file is imported (setup files run again for each file): its top-level servers count.
  const started = { cpu: process.cpuUsage(), wall: performance.now(), children: childrenCpuMs() };
  afterAll(() => {
    const cpu = process.cpuUsage(started.cpu);
    const line = {
      project,
      file: testFile(),
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
    // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14; in ticks of 10 ms (USER_HZ 100).
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/**
 * With `TEST_FILE_PROFILE` naming a folder, each test file writes a V8 CPU
 * profile of its worker there (`<file>.<project>.cpuprofile`; open it in
 * Chrome's DevTools or speedscope). vitest stops its workers without the
 * exit that `--cpu-prof` needs, so the profile is taken here, file by file.
 */
const profileFolder = process.env.TEST_FILE_PROFILE;
if (profileFolder) {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 1000 });
  await post('Profiler.start');
  afterAll(async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    session.disconnect();
    const name = testFile().replaceAll('/', '_');
    mkdirSync(profileFolder, { recursive: true });
    writeFileSync(join(profileFolder, `${name}.${project}.cpuprofile`), JSON.stringify(profile));
  });
}
