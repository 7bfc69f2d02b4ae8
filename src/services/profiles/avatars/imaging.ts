import { loadSharp } from '../../../platform/images.js';
import type * as JdenticonModule from 'jdenticon';

/*
 * The image libraries, loaded when the first image is checked or drawn, not
 * at start-up: a server that may never draw an avatar should not wait for
 * sharp (a native library) and jdenticon to load before its first answer.
 * Each is loaded once; later calls share the same module.
 */
let jdenticonModule: Promise<typeof JdenticonModule> | undefined;

/** sharp, as the platform loads it (`platform/images.ts`). */
export { loadSharp };

/** jdenticon's functions (`toSvg`). */
export const loadJdenticon = (): Promise<typeof JdenticonModule> => (jdenticonModule ??= import('jdenticon'));
