// @store-independent
import { describe, expect, it } from 'vitest';
import { onFirstSuccess } from '../../src/platform/onFirstUse.js';

describe('onFirstSuccess', () => {
  it('makes the value once and answers the same promise after', async () => {
    let made = 0;
    const value = onFirstSuccess(async () => ++made);
    const first = value();
    expect(value()).toBe(first);
    expect(await first).toBe(1);
    expect(await value()).toBe(1);
    expect(made).toBe(1);
  });

  it('makes it again on the call after a failure, which it does not keep', async () => {
    let made = 0;
    const value = onFirstSuccess(async () => {
      if (++made === 1) throw new Error('turned away');
      return made;
    });
    await expect(value()).rejects.toThrow('turned away');
    expect(await value()).toBe(2);
    expect(await value()).toBe(2);
    expect(made).toBe(2);
  });
});
