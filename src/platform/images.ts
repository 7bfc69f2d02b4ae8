import type SharpModule from 'sharp';

let sharpModule: Promise<typeof SharpModule> | undefined;

/**
 * sharp's entry point (`sharp(input, options)`), loaded when the first image
 * is checked or drawn, not at start-up (a server that may never draw an
 * image should not wait for a native library). libvips' operation cache is
 * kept small and off disk, with one thread per image: the services cache
 * what they draw themselves, and a flood of large images must not grow the
 * process (see docs/performance.md, "Avatar floods"); how many images are
 * worked on at once is bounded by each service's `concurrencyGate`.
 */
export const loadSharp = (): Promise<typeof SharpModule> =>
  (sharpModule ??= import('sharp').then((loaded) => {
    const sharp = loaded.default;
    sharp.cache({ memory: 16, items: 20, files: 0 });
    sharp.concurrency(1);
    return sharp;
  }));
