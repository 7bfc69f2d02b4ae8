// @store-independent
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { apiDate } from '../../../src/services/publishing/domain/dates.js';

/** The definition: the time in UTC at seconds precision, with an explicit offset. */
const byDate = (stored: string) => new Date(stored).toISOString().replace(/\.\d{3}Z$/, '+00:00');

describe('apiDate', () => {
  test.prop([
    fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
  ])(
    'writes any stored time (as toISOString writes it, with or without its fraction) as that time in UTC at seconds precision',
    (date) => {
      const stored = date.toISOString();
      expect(apiDate(stored)).toBe(byDate(stored));
      expect(apiDate(stored.replace(/\.\d{3}Z$/, 'Z'))).toBe(byDate(stored));
    },
  );

  it('reads other spellings of a time through Date: offsets, leap days, no seconds', () => {
    expect(apiDate('2015-04-13T12:00:00+02:00')).toBe('2015-04-13T10:00:00+00:00');
    expect(apiDate('2016-02-29T08:30:00.250Z')).toBe('2016-02-29T08:30:00+00:00');
    expect(apiDate('2015-04-13T10:00Z')).toBe('2015-04-13T10:00:00+00:00');
  });

  it('reads a day the month does not have as Date does (rolled over), never copied as written', () => {
    for (const stored of ['2015-02-30T10:00:00Z', '2015-04-31T10:00:00Z', '2015-02-29T10:00:00.000Z']) {
      expect(apiDate(stored)).toBe(byDate(stored));
      expect(apiDate(stored).slice(0, 10)).not.toBe(stored.slice(0, 10));
    }
  });
});
