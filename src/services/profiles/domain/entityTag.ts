import { hash } from 'node:crypto';

/** A strong entity tag of a representation's bytes (the one-shot `hash`: no Hash object per answer). */
export const entityTag = (bytes: Buffer): string => `"${hash('sha1', bytes, 'base64url')}"`;
