/// <reference path="./rateLimiterFlexibleFiles.d.ts" />
/**
 * The two classes the project takes from rate-limiter-flexible, each read
 * from its own file: the package's index requires every limiter it has
 * (Redis, Mongo, MySQL, Postgres, DynamoDB, etcd, Prisma, Drizzle…), and a
 * server that imported it would run and keep them all
 * (docs/decisions/lazy-packages.md). The files' types are the package's
 * (`rateLimiterFlexibleFiles.d.ts`).
 */
import type * as Package from 'rate-limiter-flexible';
import compatibleAbstractFile from 'rate-limiter-flexible/lib/RateLimiterCompatibleAbstract.js';
import resFile from 'rate-limiter-flexible/lib/RateLimiterRes.js';

export const RateLimiterCompatibleAbstract = compatibleAbstractFile;
export type RateLimiterCompatibleAbstract = Package.RateLimiterCompatibleAbstract;
export const RateLimiterRes = resFile;
export type RateLimiterRes = Package.RateLimiterRes;
