/**
 * Freezes an answer and everything in it, so one rendering can be handed to
 * many requests: nothing downstream can change it for the next one (a
 * change throws, every module being strict code).
 */
export const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
};

/**
 * The JSON of an answer, each frozen object in it serialised once and its
 * text remembered (`kept`, by the object) for every later answer that holds
 * it: a list of twenty posts kept by a render cache costs twenty lookups
 * and a join, not twenty serialisations. Frozen parts are looked for where
 * an answer holds its objects (`holdsFrozen`: the answer, its members and
 * items, and theirs); whatever holds none there is serialised whole by
 * `JSON.stringify`, as fast as an answer without kept parts. The text is
 * what `JSON.stringify` writes: keys in order, an `undefined`, function or
 * symbol member left out of an object and `null` in an array, `toJSON`
 * honoured (an object that has it is handed to `JSON.stringify` whole).
 */
export function jsonWithKeptParts(value: unknown, kept: WeakMap<object, string>): string {
  if (!holdsFrozen(value, 0)) return JSON.stringify(value);
  if (Object.isFrozen(value)) {
    let text = kept.get(value as object);
    if (text === undefined) kept.set(value as object, (text = JSON.stringify(value)));
    return text;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : jsonWithKeptParts(item, kept))).join(',')}]`;
  }
  const members: string[] = [];
  for (const [key, member] of Object.entries(value as object)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    members.push(`${JSON.stringify(key)}:${jsonWithKeptParts(member, kept)}`);
  }
  return `{${members.join(',')}}`;
}

/** Plain objects (arrays included) that may be kept: not what `JSON.stringify` hands to `toJSON`. */
const isPlainObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/**
 * Whether a frozen object is the value, or within three levels of it (an
 * envelope, its body, the body's `posts`, a post): deeper, an answer holds
 * only what its objects are made of.
 */
function holdsFrozen(value: unknown, depth: number): boolean {
  if (!isPlainObject(value)) return false;
  if (Object.isFrozen(value)) return true;
  if (depth >= 3) return false;
  for (const member of Array.isArray(value) ? value : Object.values(value))
    if (holdsFrozen(member, depth + 1)) return true;
  return false;
}
