import { beforeAll, expect, it } from 'vitest';

beforeAll(() => {
  throw new Error('setup failed');
});
it('would pass if its setup had not failed', () => expect(true).toBe(true));
