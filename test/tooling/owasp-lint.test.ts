import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readContract } from '../../scripts/contracts.js';
import { CONTRACTS, projectRoot, quietToolEnv } from '../../scripts/tools.js';

/**
 * `npm run lint:owasp`: Spectral's OWASP API Security ruleset with the
 * project's `.spectral.yaml`. Today's contracts pass; a contract that drops
 * a request input's bound, or an answer's rate-limit headers, fails; the
 * narrowed rules leave answers' schemas alone.
 */
interface Finding {
  code: string;
  source: string;
  path: (string | number)[];
}

const folder = mkdtempSync(join(tmpdir(), 'owasp-lint-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Spectral's findings over `files`, as the npm script runs it (warnings fail too). */
async function lint(files: string[]): Promise<{ exitCode: number; findings: Finding[] }> {
  const args = [
    'lint',
    '--ruleset',
    join(projectRoot, '.spectral.yaml'),
    '--fail-severity=warn',
    '--format',
    'json',
    '--quiet',
    ...files,
  ];
  try {
    const { stdout } = await promisify(execFile)(join(projectRoot, 'node_modules/.bin/spectral'), args, {
      cwd: projectRoot,
      env: quietToolEnv,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { exitCode: 0, findings: JSON.parse(stdout || '[]') as Finding[] };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { exitCode: failed.code ?? 1, findings: JSON.parse(failed.stdout || '[]') as Finding[] };
  }
}

/** Today's contract `name`, changed by `change`, written as JSON into the test's folder. */
function changedCopy(name: string, file: string, change: (document: Record<string, any>) => void): string {
  const document = structuredClone(readContract(name)) as Record<string, any>;
  change(document);
  const path = join(folder, file);
  writeFileSync(path, JSON.stringify(document));
  return path;
}

describe('npm run lint:owasp', () => {
  it("passes today's contracts", async () => {
    const { exitCode, findings } = await lint(CONTRACTS.map((name) => `openapi/${name}.yaml`));
    expect(findings).toEqual([]);
    expect(exitCode).toBe(0);
  }, 120_000);

  it("fails a request input without a bound, an answer without the rate-limit headers, and a 429 without Retry-After; not an answer's unbounded field", async () => {
    const files = [
      changedCopy('publishing', 'unbounded-flag.json', (d) => delete d.components.schemas.Flag.anyOf[1].maxLength),
      changedCopy('publishing', 'unbounded-integer.json', (d) => delete d.components.parameters.number.schema.maximum),
      changedCopy(
        'developer',
        'no-rate-limit-headers.json',
        (d) => delete d.paths['/oauth/authorizations'].get.responses['200'].headers,
      ),
      changedCopy(
        'profiles',
        'no-retry-after.json',
        (d) => delete d.components.responses.RateLimitExceeded.headers['Retry-After'],
      ),
      // As it is: its answers' strings (`display_name`, …) have no maxLength, which the ruleset as published would flag.
      changedCopy('profiles', 'unbounded-answer-field.json', (d) =>
        expect(d.components.schemas.AnonymousProfile.properties.display_name.maxLength).toBeUndefined(),
      ),
    ];
    const { exitCode, findings } = await lint(files);
    expect(exitCode).not.toBe(0);
    const found = (file: string) =>
      findings
        .filter((finding) => finding.source.endsWith(file))
        .map((finding) => `${finding.code} ${finding.path.join('/')}`);
    expect(found('unbounded-flag.json')).toContain('owasp:api4:2023-string-limit components/schemas/Flag/anyOf/1');
    expect(found('unbounded-integer.json')).toContain(
      'owasp:api4:2023-integer-limit components/parameters/number/schema',
    );
    expect(found('no-rate-limit-headers.json')).toContain(
      'owasp:api4:2023-rate-limit paths//oauth/authorizations/get/responses/200',
    );
    expect(found('no-retry-after.json')).toContain(
      'owasp:api4:2023-rate-limit-retry-after components/responses/RateLimitExceeded/headers',
    );
    // The bounds rules read what callers send: a field of an answer is the server's to write.
    expect(found('unbounded-answer-field.json')).toEqual([]);
  }, 120_000);
});
