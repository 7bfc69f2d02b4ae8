/** The platform's `If-None-Match` comparison (`platform/answers/ifNoneMatch.ts`). */
export { ifNoneMatchMatches } from '../../../platform/answers/ifNoneMatch.js';
