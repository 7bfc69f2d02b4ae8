import type { MetadataInput, PostInput, TermNames } from '../../../../generated/publishing/types.gen.js';

/**
 * A write's fields as the endpoint layer has cast them (`http/phpCast.ts`,
 * driven by the contract's `x-php-cast`): one type per field, only the
 * fields the operation documents, a field sent as `null` left out. A new
 * post's `status` and `format` are always there (their first value when
 * missing or unknown); an edit's are there only when known.
 */
export interface WriteInput {
  title?: string;
  content?: string;
  excerpt?: string;
  slug?: string;
  status?: 'publish' | 'private' | 'draft' | 'pending' | 'future' | 'trash';
  date?: string;
  /** v1.2's edit only: the post's `modified` as the caller last read it (see `updatePost`). */
  if_not_modified_since?: string;
  password?: string;
  sticky?: boolean;
  parent?: number;
  type?: string;
  menu_order?: number;
  page_template?: string;
  discussion?: NonNullable<PostInput['discussion']>;
  likes_enabled?: boolean;
  sharing_enabled?: boolean;
  author?: number | string;
  format?:
    | 'default'
    | 'standard'
    | 'aside'
    | 'chat'
    | 'gallery'
    | 'link'
    | 'image'
    | 'quote'
    | 'status'
    | 'video'
    | 'audio';
  /** Terms by taxonomy, names or IDs (v1.1: digits are an ID); `null` clears the taxonomy. */
  terms?: Record<string, TermNames | null>;
  categories?: TermNames;
  tags?: TermNames;
  /** Terms by taxonomy, IDs only (v1.2's `terms_by_id`; the v1.1 endpoint drops it). */
  terms_by_id?: Record<string, TermNames | null>;
  /** Categories and tags by ID (v1.2 only), added to those named. */
  categories_by_id?: TermNames;
  tags_by_id?: TermNames;
  /** An attachment ID to feature, `""` to remove it. */
  featured_image?: string;
  metadata?: MetadataInput[];
  /** The files of a multipart body. */
  media?: { filename: string; bytes?: Buffer; truncated?: boolean }[];
  /** URLs of files to fetch into the media library, attached to the post. */
  media_urls?: string[] | string;
  /** Per file, its attributes. */
  media_attrs?: unknown;
}
