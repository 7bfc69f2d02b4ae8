import { describe } from 'vitest';

describe('a suite whose tests were all removed', () => {});
