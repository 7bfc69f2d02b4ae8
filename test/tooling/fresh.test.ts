import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, buildWhenChanged, inputsHash, isFresh } from '../../scripts/fresh.mjs';
import { projectRoot } from '../../scripts/tools.js';

/**
 * `npm start` builds the docs, the dashboard page and the server bundle only
 * when their inputs changed: a build runs once, is skipped while nothing
 * changes, and runs again when an input's bytes (or its set of files) change.
 */
const dir = `.tmp/fresh-${process.pid}`;
afterAll(() => rmSync(join(projectRoot, dir), { recursive: true, force: true }));

describe('a build only when its inputs changed', () => {
  it('builds once, skips while nothing changes, builds again after a change', async () => {
    mkdirSync(join(projectRoot, dir, 'in'), { recursive: true });
    writeFileSync(join(projectRoot, dir, 'in/a.txt'), 'one');
    let builds = 0;
    const build = () => buildWhenChanged(`${dir}/out/.stamp`, [`${dir}/in`], async () => void builds++);
    expect(await build()).toBe(true);
    expect(await build()).toBe(false);
    writeFileSync(join(projectRoot, dir, 'in/a.txt'), 'two');
    expect(await build()).toBe(true);
    writeFileSync(join(projectRoot, dir, 'in/b.txt'), 'new file');
    expect(await build()).toBe(true);
    expect(await build()).toBe(false);
    expect(builds).toBe(3);
  });

  it('a failed build records nothing, so the next start tries again', async () => {
    const stamp = `${dir}/failing/.stamp`;
    await expect(buildWhenChanged(stamp, ['openapi'], async () => Promise.reject(new Error('broken')))).rejects.toThrow(
      'broken',
    );
    let built = false;
    expect(await buildWhenChanged(stamp, ['openapi'], async () => void (built = true))).toBe(true);
    expect(built).toBe(true);
  });

  it('reads no input while every size and time is as recorded; new times with the same bytes stay fresh', async () => {
    const input = join(projectRoot, dir, 'timed/a.txt');
    const stamp = `${dir}/timed-out/.stamp`;
    mkdirSync(join(projectRoot, dir, 'timed'), { recursive: true });
    writeFileSync(input, 'one');
    // Whole seconds: a time set back later is then exactly the recorded one.
    const recordedTime = Math.floor(Date.now() / 1000) - 60;
    utimesSync(input, recordedTime, recordedTime);
    expect(await buildWhenChanged(stamp, [`${dir}/timed`], async () => {})).toBe(true);
    // Other bytes of the same size under the recorded time: trusted as recorded, so not read.
    writeFileSync(input, 'two');
    utimesSync(input, recordedTime, recordedTime);
    expect(isFresh(stamp, [`${dir}/timed`])).toBe(true);
    // A new time: the bytes are read, and they differ.
    utimesSync(input, recordedTime + 5, recordedTime + 5);
    expect(isFresh(stamp, [`${dir}/timed`])).toBe(false);
    // The recorded bytes under a new time: fresh, and the new time is recorded.
    writeFileSync(input, 'one');
    const before = readFileSync(join(projectRoot, stamp), 'utf8');
    expect(isFresh(stamp, [`${dir}/timed`])).toBe(true);
    const after = readFileSync(join(projectRoot, stamp), 'utf8');
    expect(after.split('\n')[0]).toBe(before.split('\n')[0]);
    expect(after).not.toBe(before);
  });

  it("covers what each build reads: a contract change rebuilds the docs and the server, not the dashboard page's", () => {
    expect(BUILD_INPUTS.docs).toContain('openapi');
    expect(BUILD_INPUTS.server).toEqual(expect.arrayContaining(['src', 'openapi', 'generated']));
    expect(BUILD_INPUTS.ui).toEqual(expect.arrayContaining(['web/developers', 'generated/developer']));
    expect(BUILD_INPUTS.mock).toEqual(
      expect.arrayContaining(['openapi', 'scripts/build-mock.ts', 'package-lock.json']),
    );
    expect(inputsHash(['openapi'])).toMatch(/^[0-9a-f]{64}$/);
  });
});
