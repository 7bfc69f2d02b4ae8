/** Types of fresh.mjs (plain JavaScript, so that `npm start` needs no TypeScript tool when nothing changed). */

/** The hash of the inputs' paths and contents (files or folders, relative to the project root). */
export function inputsHash(inputs: readonly string[]): string;

/** Whether the stamp (relative to the project root) records the inputs' current hash (by their sizes and times while those match; a stamp whose files only changed times is updated). */
export function isFresh(stamp: string, inputs: readonly string[]): boolean;

/** Runs `build` unless the stamp records the inputs' current hash; records it after a build. Resolves true when it built. */
export function buildWhenChanged(
  stamp: string,
  inputs: readonly string[],
  build: () => Promise<void>,
): Promise<boolean>;

/** The inputs of each build `npm start` (docs, ui, server) and `npm run mock` (mock) make (package-lock.json: the tools' versions). */
export const BUILD_INPUTS: {
  readonly docs: readonly string[];
  readonly ui: readonly string[];
  readonly server: readonly string[];
  readonly mock: readonly string[];
};

/** Where each build records the hash of the inputs it was built from. */
export const BUILD_STAMPS: {
  readonly docs: string;
  readonly ui: string;
  readonly server: string;
  readonly mock: string;
};
