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

/**
 * A value made on the first call and answered to every call after, unless making it failed: then the next
 * call makes it again (a hash made once per process, say: a failure is not kept for good).
 */
export function onFirstSuccess<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    if (!made) {
      made = make();
      made.catch(() => (made = undefined));
    }
    return made;
  };
}
