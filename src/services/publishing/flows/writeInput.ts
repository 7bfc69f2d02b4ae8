import type { CastBodies } from '../../../../generated/publishing/casts.gen.js';

/** The post writes whose fields the write flows take: v1.1's and v1.2's new post and edit. */
type PostWrites = CastBodies['createPost' | 'updatePost' | 'createPostV12' | 'updatePostV12'];

/** Every field any of them has. */
type FieldOf<U> = U extends unknown ? keyof U : never;

/**
 * A write's fields as the endpoint layer has cast them (`http/phpCast.ts`,
 * driven by the contract's `x-php-cast`), typed from the same contract
 * (`CastBodies`, generated): one type per field, only the fields the
 * operation documents, a field sent as `null` left out. A field is the type
 * any of the post writes gives it: a new post's `status` and `format` are
 * always there (their first value when missing or unknown), an edit's only
 * when known; v1.2's fields (`terms_by_id`, `categories_by_id`,
 * `if_not_modified_since`, …) come only from its operations.
 */
export type WriteInput = {
  [Field in FieldOf<PostWrites>]?: PostWrites extends infer Write
    ? Write extends unknown
      ? Field extends keyof Write
        ? Write[Field]
        : never
      : never
    : never;
};
