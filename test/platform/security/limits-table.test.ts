import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/tools.js';
import { buildApp, configFromEnv, type BuiltApp, type Config } from '../../../src/app.js';
import type { LimitDeclaration } from '../../../src/platform/security/limits.js';
import { oauthLimitDeclarations } from '../../../src/accounts/oauth/authorizationServer.js';
import { readContract } from '../../../scripts/contracts.js';

/**
 * docs/operations.md says, per route, what one address can take per hour
 * with the default settings. This reads that table and checks each row
 * against the limits the services declare in their policy tables (built
 * from the default configuration), and that every operation of every
 * service is in the table, with a limit by address.
 */
interface Row {
  route: string;
  operations: string[];
  perHour: number | 'not limited';
  limit: string;
}

function tableRows(): Row[] {
  const text = readFileSync(join(projectRoot, 'docs/operations.md'), 'utf8');
  const start = text.indexOf('| route | operations | per address per hour |');
  expect(start).toBeGreaterThan(0);
  const lines = text.slice(start).split('\n');
  const rows: Row[] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    const [route, operations, perHour, limit] = line
      .split('|')
      .slice(1)
      .map((cell) => cell.trim()) as [string, string, string, string];
    rows.push({
      route,
      operations: [...operations.matchAll(/`([a-z]+\.[A-Za-z0-9]+)`/g)].map((match) => match[1]!),
      perHour: perHour === 'not limited' ? perHour : Number(perHour),
      limit: /`([^`]+)`/.exec(limit)?.[1] ?? '',
    });
  }
  return rows;
}

/** The limit declarations of each operation's policy, as `service.operationId`; the authorization server's (`oauth.…`) as it declares them. */
function declaredLimits(built: BuiltApp): Map<string, LimitDeclaration<never>[]> {
  const byOperation = new Map<string, LimitDeclaration<never>[]>();
  const oauth = oauthLimitDeclarations(config.developer.oauthLimits);
  const operations = Object.values(readContract('oauth').paths ?? {}).flatMap(
    (item) => Object.values(item) as { operationId?: string }[],
  );
  for (const { operationId } of operations.filter((operation) => typeof operation.operationId === 'string')) {
    // Every request counts per address; those naming an application (all but the metadata and keys) per application too.
    const namesApplication = !['getAuthorizationServerMetadata', 'getOpenIdConfiguration', 'getJsonWebKeySet'].includes(
      operationId!,
    );
    byOperation.set(`oauth.${operationId}`, [
      oauth.perAddress,
      ...(namesApplication ? [oauth.perApplication] : []),
    ] as LimitDeclaration<never>[]);
  }
  for (const service of built.services) {
    for (const operation of service.contract.operations) {
      const admit = service.policies?.[operation.operationId]?.admit;
      const steps = admit === undefined ? [] : Array.isArray(admit) ? admit : [admit];
      const limits = steps.flatMap(
        (step) => ((step as { limits?: LimitDeclaration<never>[] }).limits ?? []) as LimitDeclaration<never>[],
      );
      byOperation.set(`${service.name}.${operation.operationId}`, limits);
    }
  }
  return byOperation;
}

const perHour = (declaration: { points: number; windowSeconds: number }) =>
  (declaration.points * 3600) / declaration.windowSeconds;

let built: BuiltApp;
let config: Config;
beforeAll(async () => {
  config = configFromEnv({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  built = await buildApp(config, { logger: pino({ level: 'silent' }) });
});
afterAll(() => built?.close());

describe('the per-route table of docs/operations.md', () => {
  it('says what each operation allows one address per hour, as its policy declares it', () => {
    const limits = declaredLimits(built);
    const rows = tableRows();
    for (const row of rows.filter((candidate) => candidate.operations.length > 0)) {
      for (const operation of row.operations) {
        const declared = limits.get(operation);
        expect(declared, `${operation} (${row.route}) is no operation`).toBeDefined();
        const named = declared!.find((declaration) => declaration.name === row.limit);
        expect(named, `${operation} has no limit ${row.limit}`).toBeDefined();
        expect(named!.per, `${operation}: ${row.limit} counts per address`).toBe('address');
        expect(perHour(named!), `${operation}: ${row.limit}`).toBe(row.perHour);
      }
    }
  });

  it('lists every operation of every service, each with a limit by address', () => {
    const listed = new Set(tableRows().flatMap((row) => row.operations));
    for (const [operation, declared] of declaredLimits(built)) {
      expect(listed.has(operation), `${operation} is not in the table`).toBe(true);
      expect(
        declared.some((declaration) => declaration.per === 'address'),
        `${operation} has no limit by address`,
      ).toBe(true);
    }
  });

  it('says what the rest allows: the docs, pages and unrouted paths', () => {
    const other = tableRows().find((row) => row.limit === 'other');
    expect(other?.perHour).toBe(
      perHour({ points: config.rateLimits.otherPerHour, windowSeconds: config.rateLimits.windowSeconds }),
    );
  });
});
