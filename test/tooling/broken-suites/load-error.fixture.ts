import { it } from 'vitest';

throw new Error('this test file fails while it loads');
it('is never reached', () => {});
