/** Tables of the profiles service (filled in by the profiles store). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProfilesTables {}
