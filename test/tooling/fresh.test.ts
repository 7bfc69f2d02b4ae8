import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, buildWhenChanged, inputsHash } from '../../scripts/fresh.mjs';
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
    await expect(buildWhenChanged(stamp, ['openapi'], async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    let built = false;
    expect(await buildWhenChanged(stamp, ['openapi'], async () => void (built = true))).toBe(true);
    expect(built).toBe(true);
  });

  it("covers what each build reads: a contract change rebuilds the docs and the server, not the dashboard page's", () => {
    expect(BUILD_INPUTS.docs).toContain('openapi');
    expect(BUILD_INPUTS.server).toEqual(expect.arrayContaining(['src', 'openapi', 'generated']));
    expect(BUILD_INPUTS.ui).toEqual(expect.arrayContaining(['web/developers', 'generated/developer']));
    expect(inputsHash(['openapi'])).toMatch(/^[0-9a-f]{64}$/);
  });
});
