import { expect, it } from 'vitest';

it('fails', () => expect(1 + 1).toBe(3));
