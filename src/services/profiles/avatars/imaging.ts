import type SharpModule from 'sharp';
import type * as JdenticonModule from 'jdenticon';

/*
 * The image libraries, loaded when the first image is checked or drawn, not
 * at start-up: a server that may never draw an avatar should not wait for
 * sharp (a native library) and jdenticon to load before its first answer.
 * Each is loaded once; later calls share the same module.
 */
let sharpModule: Promise<typeof SharpModule> | undefined;
let jdenticonModule: Promise<typeof JdenticonModule> | undefined;

/**
 * sharp's entry point (`sharp(input, options)`), with libvips' operation
 * cache kept small and off disk and one thread per image: drawn images are
 * cached by the service itself, and a flood of large drawings must not
 * grow the process (see docs/performance.md, "Avatar floods").
 */
export const loadSharp = (): Promise<typeof SharpModule> =>
  (sharpModule ??= import('sharp').then((loaded) => {
    const sharp = loaded.default;
    sharp.cache({ memory: 16, items: 20, files: 0 });
    sharp.concurrency(1);
    return sharp;
  }));

/** jdenticon's functions (`toSvg`). */
export const loadJdenticon = (): Promise<typeof JdenticonModule> => (jdenticonModule ??= import('jdenticon'));
