/** Single files of rate-limiter-flexible (see `rateLimiterFlexible.ts`), typed as the package's index exports them. */
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  import { RateLimiterRes } from 'rate-limiter-flexible';
  const file: typeof RateLimiterRes;
  export = file;
}

declare module 'rate-limiter-flexible/lib/RateLimiterCompatibleAbstract.js' {
  import { RateLimiterCompatibleAbstract } from 'rate-limiter-flexible';
  const file: typeof RateLimiterCompatibleAbstract;
  export = file;
}
