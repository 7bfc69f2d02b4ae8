import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { bundleEntryPoints } from '../bundle.js';
import { freePort, projectRoot } from '../tools.js';
import { rssMiB } from './avatarFlood.js';
import { issuePublishingToken } from './project.js';

/**
 * `npm run bench:media`: what one upload costs against sharp alone on the
 * same file, and the server's resident memory during a burst of concurrent
 * uploads. The server is bundled from `src/main.ts` and run as a child
 * process on a SQLite file of its own (its media beside it). A photo-sized
 * JPEG (`BENCH_MEDIA_SIDE`, 2000 pixels wide, 3:2) is uploaded
 * `BENCH_MEDIA_SEQUENTIAL` (20) times one after the other (the median
 * answer time) and cleaned by sharp alone as the upload cleans it (the
 * median), then `BENCH_MEDIA_CONCURRENT` (50) uploads are sent at once
 * while the server's RSS is sampled (start, peak, after). Prints one JSON
 * line; docs/performance.md keeps the figures. `BENCH_CPU_PROF=DIR` writes
 * the server's CPU profile there (`tsx scripts/bench/cpuprofile.ts` reads it).
 */
const side = Number(process.env.BENCH_MEDIA_SIDE ?? 2000);
const sequential = Number(process.env.BENCH_MEDIA_SEQUENTIAL ?? 20);
const concurrent = Number(process.env.BENCH_MEDIA_CONCURRENT ?? 50);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A photo-like JPEG: noise over a gradient (so it compresses as a photo does), with EXIF orientation and a camera. */
async function photo(): Promise<Buffer> {
  const width = side;
  const height = Math.round((side * 2) / 3);
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i / 3) % width) / (width / 200) + ((i * 2654435761) >>> 27);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'Bench', Model: 'Camera' } })
    .toBuffer();
}

/** sharp alone, as an upload cleans an image: metadata, upright, no metadata kept but the profile, same format. */
async function sharpAlone(bytes: Buffer): Promise<number> {
  const started = performance.now();
  await sharp(bytes).metadata();
  await sharp(bytes).rotate().keepIccProfile().jpeg().toBuffer();
  return performance.now() - started;
}

const folder = mkdtempSync(join(tmpdir(), 'bench-media-'));
const databaseUrl = `sqlite:${join(folder, 'app.db')}`;
const { main } = await bundleEntryPoints({ main: 'src/main.ts' }, { prefix: 'bench-media-' });
const port = await freePort();
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DATABASE_URL: databaseUrl,
  SERVICES: 'publishing',
  RATE_LIMIT_PUBLISHING_READS: '1000000000',
  RATE_LIMIT_PUBLISHING_WRITES: '1000000000',
  RATE_LIMIT_OTHER: '1000000000',
  MEDIA_SITE_QUOTA_BYTES: String(64 * 1024 * 1024 * 1024),
};
const profileDir = process.env.BENCH_CPU_PROF;
const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const child = spawn(process.execPath, [...flags, main], {
  cwd: projectRoot,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
const exited = new Promise((resolve) => child.once('exit', resolve));
const base = `http://127.0.0.1:${port}`;
try {
  let up = false;
  for (let tries = 0; tries < 300 && !up; tries++) {
    up = await fetch(`${base}/healthz`).then(
      async (res) => (await res.arrayBuffer(), true),
      () => false,
    );
    if (!up) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!up) throw new Error('the server did not start');
  const token = await issuePublishingToken(databaseUrl);
  const bytes = await photo();
  const upload = async () => {
    const form = new FormData();
    form.append('media[]', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
    const started = performance.now();
    const response = await fetch(`${base}/rest/v1.1/sites/1/media/new`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  };
  // sharp loads with the first image: part of the start, not of the figures.
  await upload();
  await sharpAlone(bytes);
  const uploads: number[] = [];
  const alone: number[] = [];
  for (let i = 0; i < sequential; i++) {
    uploads.push((await upload()).ms);
    alone.push(await sharpAlone(bytes));
  }
  const start = rssMiB(child.pid!);
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid!))), 20);
  const burstStarted = performance.now();
  const burst = await Promise.all(Array.from({ length: concurrent }, upload));
  const burstMs = performance.now() - burstStarted;
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(child.pid!));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const statuses: Record<number, number> = {};
  for (const { status } of burst) statuses[status] = (statuses[status] ?? 0) + 1;
  console.log(
    JSON.stringify({
      file: { bytes: bytes.length, width: side, height: Math.round((side * 2) / 3) },
      uploadMedianMs: Math.round(median(uploads)),
      sharpAloneMedianMs: Math.round(median(alone)),
      burst: { uploads: concurrent, statuses, ms: Math.round(burstMs) },
      rssMiB: { start, peak, after: rssMiB(child.pid!) },
    }),
  );
} finally {
  child.kill('SIGTERM');
  // Gone before its folder is (and its profile, if any, written).
  await exited;
  rmSync(folder, { recursive: true, force: true });
}
