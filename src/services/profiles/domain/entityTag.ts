import { createHash } from 'node:crypto';

/** A strong entity tag of a representation's bytes. */
export const entityTag = (bytes: Buffer): string => `"${createHash('sha1').update(bytes).digest('base64url')}"`;
