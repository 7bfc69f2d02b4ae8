// @store-independent: it runs each case on SQLite, and on PostgreSQL too when the case reached a handler (test/support/store-reach.ts)
import { describe, expect, it } from 'vitest';
import type { On } from '../support/store-reach.js';
import type { FuzzTarget } from './targets.js';
import { badInputHarness } from './bad-input.js';

/** The bad-input catalogue (`bad-input.ts`): path values of every kind, in every path parameter. */
const { stores, targets, pathOf, send } = await badInputHarness();

it('runs a case on PostgreSQL too exactly when it reached the store past validation', async () => {
  const target = targets.find((t) => t.operation.method === 'GET' && t.parameters.some((p) => p.in === 'path'))!;
  const name = target.parameters.find((p) => p.in === 'path')!.name;
  const answers: Partial<Record<On['store'], number>> = {};
  const valid = await stores.onReachedStores(async (on) => {
    answers[on.store] = (await send(on, target, pathOf(target))).status;
  });
  expect(valid).toEqual(['sqlite', 'postgres']);
  expect(answers.postgres).toBe(answers.sqlite);
  // Malformed percent-encoding: refused before any validator passes, answered by the same code on either store.
  const refused = await stores.onReachedStores(async (on) => {
    expect((await send(on, target, pathOf(target, { [name]: '%E0%A4%A' }))).status).toBe(400);
  });
  expect(refused).toEqual(['sqlite']);
});

/** Path values of every kind, as sent on the wire. */
const PATH_VALUES = {
  empty: '',
  'very long': 'x'.repeat(5000),
  unicode: encodeURIComponent('Zoë-🙂-名前'),
  'encoded slash': 'a%2Fb',
  'dot-dot': '..',
  'encoded dot-dot': '%2E%2E',
  'malformed percent-encoding': '%E0%A4%A',
  'a lone %': '%',
  'encoded NUL': '%00',
  'NUL inside': 'a%00b',
  'encoded line break': '%0D%0A',
  'non-numeric': 'abc',
  'negative number': '-1',
  'past 2^31 (PostgreSQL integer)': '2147483648',
  '2^53 - 1': '9007199254740991',
  'beyond 2^53': '9007199254740993',
  'SQL-like': encodeURIComponent("1' OR '1'='1"),
};

const pathTargets = targets.flatMap((target) =>
  target.parameters
    .filter((p) => p.in === 'path')
    .flatMap((p) =>
      Object.entries(PATH_VALUES).map(([kind, value]) => ({
        label: `${target.label} ${p.name}: ${kind}`,
        target,
        name: p.name,
        value,
      })),
    ),
);

describe.concurrent('path values of every kind, in every path parameter', () => {
  it.each(pathTargets)('$label', async ({ target, name, value }) => {
    await stores.onReachedStores(async (on) => {
      await send(on, target, pathOf(target, { [name]: value }));
    });
  });

  const isInteger = (target: FuzzTarget, name: string) =>
    target.operation.pathParams.some((p) => p.name === name && p.integer);
  const numeric = pathTargets.filter(({ target, name, value }) => isInteger(target, name) && value === 'abc');
  it.each(numeric)('$label: a non-numeric ID matches no route (404)', async ({ target, name, value }) => {
    await stores.onReachedStores(async (on) => {
      expect((await send(on, target, pathOf(target, { [name]: value }))).status).toBe(404);
    });
  });

  const malformed = pathTargets.filter(({ target, name, value }) => !isInteger(target, name) && value === '%E0%A4%A');
  it.each(malformed)('$label: 400 naming the parameter', async ({ target, name, value }) => {
    await stores.onReachedStores(async (on) => {
      const answer = await send(on, target, pathOf(target, { [name]: value }));
      // Security comes first: an operation that needs a credential it has no way to get here may refuse before.
      if (answer.status === 400) expect(answer.text).toContain(name);
      else expect([401, 403]).toContain(answer.status);
    });
  });
});
