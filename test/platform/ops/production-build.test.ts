import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS, projectRoot, run } from '../../../scripts/tools.js';
import { compileContract, type CompiledContract } from '../../../src/platform/http/contract.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { startProcess, type ServerProcess } from '../../support/processes.js';

/**
 * `npm run build:server` compiles the server with tsconfig.build.json and
 * `npm run start:prod` runs it with node. Here the same compilation goes to a
 * folder of its own inside the project (so a developer's dist/ is left alone,
 * and the contracts and built pages are found from it as from dist/server/).
 * It emits without type-checking (`--noCheck`): `npm run typecheck` checks
 * the same sources, and checking them again here cost most of this file's time.
 */
const outDir = join(projectRoot, '.tmp', `server-build-${process.pid}`);
let server: ServerProcess | undefined;
let call: typeof fetch;

beforeAll(async () => {
  rmSync(outDir, { recursive: true, force: true });
  const code = await run('tsc', ['-p', 'tsconfig.build.json', '--noCheck', '--outDir', outDir], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (code !== 0) throw new Error(`tsc -p tsconfig.build.json exited with ${code}`);
  // The rest of `npm run build:server`: the contracts as JSON beside the compiled server.
  const contracts = await run('tsx', ['scripts/build-contracts.ts', outDir], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (contracts !== 0) throw new Error(`scripts/build-contracts.ts exited with ${contracts}`);
  call = contractFetch(await contractChecker());
}, 180_000);

afterAll(async () => {
  await server?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is JavaScript only: node runs it without tsx', () => {
    expect(existsSync(join(outDir, 'src/main.js'))).toBe(true);
    expect(existsSync(join(outDir, 'src/main.ts'))).toBe(false);
  });

  it('has every contract as JSON beside it, made from the YAML as it is now', () => {
    for (const name of CONTRACTS) {
      const compiled = JSON.parse(readFileSync(join(outDir, 'openapi', `${name}.json`), 'utf8')) as CompiledContract;
      expect(compiled).toEqual(compileContract(readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8')));
    }
  });

  it('starts in production mode and answers health, a profile, the docs and the dashboard page', async () => {
    server = await startProcess({ NODE_ENV: 'production', DATABASE_URL: 'sqlite::memory:' }, { main: join(outDir, 'src/main.js') });
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const profile = await call(`${server.base}/v3/profiles/alex`);
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ display_name: 'Alex Morgan' });
    // The contracts were read from openapi/ and the built pages from dist/, relative to the project root.
    expect((await fetch(`${server.base}/docs/profiles`)).status).toBe(200);
    expect((await fetch(`${server.base}/developers`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(server.lines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
  });
});
