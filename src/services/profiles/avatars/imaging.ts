import type SharpModule from 'sharp';
import type * as JdenticonModule from 'jdenticon';

/*
 * The image libraries, loaded when the first image is checked or drawn, not
 * at start-up: sharp (a native library) and jdenticon took about 170 ms of
 * module loading before the first answer of a server that may never draw an
 * avatar. Each is loaded once; later calls share the same module.
 */
let sharpModule: Promise<typeof SharpModule> | undefined;
let jdenticonModule: Promise<typeof JdenticonModule> | undefined;

/** sharp's entry point (`sharp(input, options)`). */
export const loadSharp = (): Promise<typeof SharpModule> => (sharpModule ??= import('sharp').then((loaded) => loaded.default));

/** jdenticon's functions (`toSvg`). */
export const loadJdenticon = (): Promise<typeof JdenticonModule> => (jdenticonModule ??= import('jdenticon'));
