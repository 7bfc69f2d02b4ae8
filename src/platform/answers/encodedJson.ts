/**
 * A JSON answer body already encoded: its UTF-8 bytes and their entity tag
 * (its maker's, as the service tags its answers), which a cache keeps in place of the object
 * they encode (several times their size in memory). `writeJson` and
 * profiles' presenter write the bytes as they are; a presenter that shapes
 * a body further (publishing's fields, envelope, JSONP) decodes it first,
 * and the pipeline's answer check (`RESPONSE_VALIDATION` other than `off`)
 * validates what it decodes to. `T` is what the bytes encode, so a
 * handler's answer is typed as the contract's body is.
 */
export class EncodedJson<T> {
  /** What the bytes decode to, for the type checker only (never set). */
  declare readonly encodes?: T;

  private constructor(
    readonly bytes: Buffer,
    readonly etag: string,
  ) {}

  /**
   * `value` as JSON, in memory of its own (not a slice of Node's shared
   * 8 KiB pool, which a kept body would hold whole), tagged by `tag`.
   */
  static of<T>(value: T, tag: (bytes: Buffer) => string): EncodedJson<T> {
    const text = JSON.stringify(value);
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    bytes.write(text);
    return new EncodedJson<T>(bytes, tag(bytes));
  }

  /** The value the bytes encode, decoded anew. */
  decode(): T {
    return JSON.parse(this.bytes.toString('utf8')) as T;
  }
}
