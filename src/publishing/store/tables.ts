/** Tables of the publishing service (filled in by the publishing store). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PublishingTables {}
