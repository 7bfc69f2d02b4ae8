// @store-independent
import { describe, expect, it } from 'vitest';
import { isDeadlock, isStoreUnavailable } from '../../../src/platform/store/unavailable.js';

/** The driver errors that mean "try again later" (503 with Retry-After) and those that are the request's own fault or a bug (never 503). */
describe('isStoreUnavailable', () => {
  it.each([
    ['SQLite busy', { code: 'SQLITE_BUSY' }],
    ['SQLite locked', { code: 'SQLITE_LOCKED_SHAREDCACHE' }],
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['PostgreSQL shutting down', { code: '57P01' }],
    ['a connection exception', { code: '08006' }],
    ['a statement timeout', { code: '57014' }],
    ['a deadlock victim, rolled back', { code: '40P01' }],
    ['a serialization failure, rolled back', { code: '40001' }],
    ['a pool that could not connect', new Error('timeout exceeded when trying to connect')],
  ])('%s is unavailable', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a syntax error', { code: '42601' }],
    ['a SQLite constraint', { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }],
    ['a plain error', new Error('boom')],
    ['nothing', undefined],
  ])('%s is not', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });
});

describe('isDeadlock', () => {
  it('is a deadlock victim only: the one store error that is the writes’ defect, logged as an error', () => {
    expect(isDeadlock({ code: '40P01' })).toBe(true);
    for (const error of [{ code: '40001' }, { code: '57014' }, { code: 'SQLITE_BUSY' }, new Error('40P01'), undefined])
      expect(isDeadlock(error)).toBe(false);
  });
});
