import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../scripts/contracts.js';
import { packageJson } from '../../scripts/build-sdk.js';
import { CONTRACTS, projectRoot } from '../../scripts/tools.js';

/**
 * docs/sdk.md names every package the build writes, at the version it
 * writes, so the page cannot drift from the contracts (a new contract, a
 * version bump). Read from the same `packageJson` the build calls; no build.
 */
const doc = readFileSync(join(projectRoot, 'docs', 'sdk.md'), 'utf8');

/** What `npm pack` names a package's tarball: the scope's `@` dropped and its `/` made a dash. */
const tarballOf = (name: string, version: string) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

const built = CONTRACTS.map((contract) => {
  const document = parseYaml(readFileSync(join(projectRoot, 'openapi', `${contract}.yaml`), 'utf8')) as Parameters<
    typeof packageJson
  >[1];
  const { name, version } = packageJson(contract, document);
  return { name, version, tarball: tarballOf(name, version) };
});

describe('docs/sdk.md', () => {
  it('lists every package the build writes, with the version and tarball it writes, and no other', () => {
    const rows = [...doc.matchAll(/^\| `(@[^`]+)` \| ([^ |]+) \| `([^`]+)` \|$/gm)].map(
      ([, name, version, tarball]) => ({ name, version, tarball }),
    );
    expect(rows).toEqual([...built].sort((a, b) => a.name.localeCompare(b.name)));
  });

  it('names, wherever it shows a tarball, one the build writes', () => {
    const named = [...new Set(doc.match(/contract-first-[a-z]+-\d+\.\d+\.\d+\.tgz/g) ?? [])];
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((tarball) => !built.some((pkg) => pkg.tarball === tarball))).toEqual([]);
  });
});
