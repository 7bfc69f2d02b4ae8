/**
 * CPU profiles of a window of a server's life, preloaded into the server
 * child with `--import`: the first SIGUSR2 starts V8's sampling profiler,
 * the next one stops it and writes `<BENCH_PROFILE_DIR>/<n>.cpuprofile`
 * (the format of `node --cpu-prof`, which would also profile start-up).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  let running = false;
  let written = 0;
  const post = (method: string, params?: object) =>
    new Promise<Record<string, unknown>>((resolve, reject) =>
      session.post(method, params, (error, result) =>
        error ? reject(error) : resolve(result as Record<string, unknown>),
      ),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 100) });
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      void post('Profiler.start');
      return;
    }
    running = false;
    void post('Profiler.stop').then(({ profile }) => {
      writeFileSync(join(dir, `${++written}.cpuprofile`), JSON.stringify(profile));
    });
  });
}
