// @store-independent
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/tools.js';

/**
 * The image library (sharp, a native library: about 140 ms of start-up) is
 * loaded when the first avatar is checked or drawn, not with the app. Seen
 * in a process of its own (this worker may have loaded it for another test
 * file): the shared objects the process has loaded, before and after.
 */
describe('the avatar image library', () => {
  it('is not loaded with the app, only when an image is first drawn', async () => {
    const script = `
      const loaded = () => process.report.getReport().sharedObjects.some((file) => /sharp|vips/.test(file));
      const { buildApp } = await import('./src/app.ts');
      const before = loaded();
      const { drawDefaultAvatar } = await import('./src/services/profiles/avatars/drawAvatar.ts');
      const png = await drawDefaultAvatar('identicon', 'seed', 16);
      console.log(JSON.stringify({ app: typeof buildApp, before, after: loaded(), png: png.subarray(1, 4).toString() }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: projectRoot,
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      app: 'function',
      before: false,
      after: true,
      png: 'PNG',
    });
  }, 60_000);
});
