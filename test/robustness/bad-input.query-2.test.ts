// @store-independent: it runs each case on SQLite, and on PostgreSQL too when the case reached a handler (test/support/store-reach.ts)
import { describeQueryValues } from './bad-input.js';

/** The bad-input catalogue (`bad-input.ts`): wrong query values, for the second half of the query parameters (two files: two workers). */
await describeQueryValues(1, 2);
