import { createRequire } from 'node:module';

const packages = createRequire(import.meta.url);

/**
 * A package loaded when it is first used, not at start-up: `onFirstUse<T>(name)()`
 * requires it on its first call and answers the same module after
 * (docs/decisions/lazy-packages.md). `T` is its type (`typeof import('…')`).
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= packages(name) as T);
}
