/**
 * The platform's `is_truthy`: `true`, `1`, and the texts `1`, `t`, `true`
 * (any case) are true; anything else is false. The casting step reads the
 * contract's `bool` fields with it, the write flow the flags inside
 * `discussion` (which come uncast).
 */
export const phpTruthy = (value: unknown): boolean =>
  value === true || value === 1 || (typeof value === 'string' && /^(1|t|true)$/i.test(value));
