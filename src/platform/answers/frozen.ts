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
 * and a join, not twenty serialisations. The text is what `JSON.stringify`
 * writes: keys in order, an `undefined` or function member left out of an
 * object and `null` in an array, `toJSON` honoured (an object that has it is
 * handed to `JSON.stringify` whole).
 */
export function jsonWithKeptParts(value: unknown, kept: WeakMap<object, string>): string {
  if (typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  if (Object.isFrozen(value)) {
    let text = kept.get(value);
    if (text === undefined) kept.set(value, (text = JSON.stringify(value)));
    return text;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : jsonWithKeptParts(item, kept))).join(',')}]`;
  }
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    members.push(`${JSON.stringify(key)}:${jsonWithKeptParts(member, kept)}`);
  }
  return `{${members.join(',')}}`;
}
