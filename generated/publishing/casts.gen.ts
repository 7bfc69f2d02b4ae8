// This file is generated from openapi/publishing.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/** A file of a multipart body, as the platform's form reader hands it on. */
export interface UploadedFile {
  readonly field: string;
  readonly filename: string;
  readonly mimeType: string;
  readonly size: number;
  readonly truncated: boolean;
  readonly bytes: Buffer;
}

/**
 * Each operation's JSON request body as the casting step hands it on
 * (`x-php-cast`, `x-php-input`): one type per field, a field sent as `null`
 * not given.
 */
export interface CastBodies {
  bulkDeletePosts: {
    post_ids?: Exclude<NonNullable<T.BulkDeletePostsData['body']>['post_ids'], null | undefined>;
  };
  bulkRestorePosts: {
    post_ids?: Exclude<NonNullable<T.BulkRestorePostsData['body']>['post_ids'], null | undefined>;
  };
  createPost: {
    title?: Exclude<NonNullable<T.CreatePostData['body']>['title'], null | undefined>;
    content?: Exclude<NonNullable<T.CreatePostData['body']>['content'], null | undefined>;
    excerpt?: Exclude<NonNullable<T.CreatePostData['body']>['excerpt'], null | undefined>;
    slug?: Exclude<NonNullable<T.CreatePostData['body']>['slug'], null | undefined>;
    status: 'publish' | 'private' | 'draft' | 'pending' | 'future';
    date?: Exclude<NonNullable<T.CreatePostData['body']>['date'], null | undefined>;
    password?: Exclude<NonNullable<T.CreatePostData['body']>['password'], null | undefined>;
    sticky?: boolean;
    parent?: number;
    type?: Exclude<NonNullable<T.CreatePostData['body']>['type'], null | undefined>;
    menu_order?: number;
    page_template?: Exclude<NonNullable<T.CreatePostData['body']>['page_template'], null | undefined>;
    discussion?: Exclude<NonNullable<T.CreatePostData['body']>['discussion'], null | undefined>;
    likes_enabled?: boolean;
    sharing_enabled?: boolean;
    author?: Exclude<NonNullable<T.CreatePostData['body']>['author'], null | undefined>;
    format: 'default' | 'standard' | 'aside' | 'chat' | 'gallery' | 'link' | 'image' | 'quote' | 'status' | 'video' | 'audio';
    terms?: Exclude<NonNullable<T.CreatePostData['body']>['terms'], null | undefined>;
    categories?: Exclude<NonNullable<T.CreatePostData['body']>['categories'], null | undefined>;
    tags?: Exclude<NonNullable<T.CreatePostData['body']>['tags'], null | undefined>;
    featured_image?: string;
    metadata?: Exclude<NonNullable<T.CreatePostData['body']>['metadata'], null | undefined>;
    media?: UploadedFile[];
    media_urls?: Exclude<NonNullable<T.CreatePostData['body']>['media_urls'], null | undefined>;
    media_attrs?: Exclude<NonNullable<T.CreatePostData['body']>['media_attrs'], null | undefined>;
  };
  updatePost: {
    title?: Exclude<NonNullable<T.UpdatePostData['body']>['title'], null | undefined>;
    content?: Exclude<NonNullable<T.UpdatePostData['body']>['content'], null | undefined>;
    excerpt?: Exclude<NonNullable<T.UpdatePostData['body']>['excerpt'], null | undefined>;
    slug?: Exclude<NonNullable<T.UpdatePostData['body']>['slug'], null | undefined>;
    status?: 'publish' | 'private' | 'draft' | 'pending' | 'future' | 'trash';
    date?: Exclude<NonNullable<T.UpdatePostData['body']>['date'], null | undefined>;
    password?: Exclude<NonNullable<T.UpdatePostData['body']>['password'], null | undefined>;
    sticky?: boolean;
    parent?: number;
    menu_order?: number;
    page_template?: Exclude<NonNullable<T.UpdatePostData['body']>['page_template'], null | undefined>;
    discussion?: Exclude<NonNullable<T.UpdatePostData['body']>['discussion'], null | undefined>;
    likes_enabled?: boolean;
    sharing_enabled?: boolean;
    author?: Exclude<NonNullable<T.UpdatePostData['body']>['author'], null | undefined>;
    format?: 'default' | 'standard' | 'aside' | 'chat' | 'gallery' | 'link' | 'image' | 'quote' | 'status' | 'video' | 'audio';
    terms?: Exclude<NonNullable<T.UpdatePostData['body']>['terms'], null | undefined>;
    categories?: Exclude<NonNullable<T.UpdatePostData['body']>['categories'], null | undefined>;
    tags?: Exclude<NonNullable<T.UpdatePostData['body']>['tags'], null | undefined>;
    featured_image?: string;
    metadata?: Exclude<NonNullable<T.UpdatePostData['body']>['metadata'], null | undefined>;
    media?: UploadedFile[];
    media_urls?: Exclude<NonNullable<T.UpdatePostData['body']>['media_urls'], null | undefined>;
    media_attrs?: Exclude<NonNullable<T.UpdatePostData['body']>['media_attrs'], null | undefined>;
  };
  createPostV12: {
    title?: Exclude<NonNullable<T.CreatePostV12Data['body']>['title'], null | undefined>;
    content?: Exclude<NonNullable<T.CreatePostV12Data['body']>['content'], null | undefined>;
    excerpt?: Exclude<NonNullable<T.CreatePostV12Data['body']>['excerpt'], null | undefined>;
    slug?: Exclude<NonNullable<T.CreatePostV12Data['body']>['slug'], null | undefined>;
    status: 'publish' | 'private' | 'draft' | 'pending' | 'future';
    date?: Exclude<NonNullable<T.CreatePostV12Data['body']>['date'], null | undefined>;
    password?: Exclude<NonNullable<T.CreatePostV12Data['body']>['password'], null | undefined>;
    sticky?: boolean;
    parent?: number;
    type?: Exclude<NonNullable<T.CreatePostV12Data['body']>['type'], null | undefined>;
    menu_order?: number;
    page_template?: Exclude<NonNullable<T.CreatePostV12Data['body']>['page_template'], null | undefined>;
    discussion?: Exclude<NonNullable<T.CreatePostV12Data['body']>['discussion'], null | undefined>;
    likes_enabled?: boolean;
    sharing_enabled?: boolean;
    author?: Exclude<NonNullable<T.CreatePostV12Data['body']>['author'], null | undefined>;
    format: 'default' | 'standard' | 'aside' | 'chat' | 'gallery' | 'link' | 'image' | 'quote' | 'status' | 'video' | 'audio';
    terms?: Exclude<NonNullable<T.CreatePostV12Data['body']>['terms'], null | undefined>;
    categories?: Exclude<NonNullable<T.CreatePostV12Data['body']>['categories'], null | undefined>;
    tags?: Exclude<NonNullable<T.CreatePostV12Data['body']>['tags'], null | undefined>;
    featured_image?: string;
    metadata?: Exclude<NonNullable<T.CreatePostV12Data['body']>['metadata'], null | undefined>;
    media?: UploadedFile[];
    media_urls?: Exclude<NonNullable<T.CreatePostV12Data['body']>['media_urls'], null | undefined>;
    media_attrs?: Exclude<NonNullable<T.CreatePostV12Data['body']>['media_attrs'], null | undefined>;
    categories_by_id?: Exclude<NonNullable<T.CreatePostV12Data['body']>['categories_by_id'], null | undefined>;
    tags_by_id?: Exclude<NonNullable<T.CreatePostV12Data['body']>['tags_by_id'], null | undefined>;
    if_not_modified_since?: Exclude<NonNullable<T.CreatePostV12Data['body']>['if_not_modified_since'], null | undefined>;
    terms_by_id?: Exclude<NonNullable<T.CreatePostV12Data['body']>['terms_by_id'], null | undefined>;
  };
  updatePostV12: {
    title?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['title'], null | undefined>;
    content?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['content'], null | undefined>;
    excerpt?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['excerpt'], null | undefined>;
    slug?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['slug'], null | undefined>;
    status?: 'publish' | 'private' | 'draft' | 'pending' | 'future' | 'trash';
    date?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['date'], null | undefined>;
    password?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['password'], null | undefined>;
    sticky?: boolean;
    parent?: number;
    menu_order?: number;
    page_template?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['page_template'], null | undefined>;
    discussion?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['discussion'], null | undefined>;
    likes_enabled?: boolean;
    sharing_enabled?: boolean;
    author?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['author'], null | undefined>;
    format?: 'default' | 'standard' | 'aside' | 'chat' | 'gallery' | 'link' | 'image' | 'quote' | 'status' | 'video' | 'audio';
    terms?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['terms'], null | undefined>;
    categories?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['categories'], null | undefined>;
    tags?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['tags'], null | undefined>;
    featured_image?: string;
    metadata?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['metadata'], null | undefined>;
    media?: UploadedFile[];
    media_urls?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['media_urls'], null | undefined>;
    media_attrs?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['media_attrs'], null | undefined>;
    categories_by_id?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['categories_by_id'], null | undefined>;
    tags_by_id?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['tags_by_id'], null | undefined>;
    if_not_modified_since?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['if_not_modified_since'], null | undefined>;
    terms_by_id?: Exclude<NonNullable<T.UpdatePostV12Data['body']>['terms_by_id'], null | undefined>;
  };
  createCategory: {
    name?: Exclude<NonNullable<T.CreateCategoryData['body']>['name'], null | undefined>;
    description?: Exclude<NonNullable<T.CreateCategoryData['body']>['description'], null | undefined>;
    parent?: Exclude<NonNullable<T.CreateCategoryData['body']>['parent'], null | undefined>;
  };
  updateCategory: {
    name?: Exclude<NonNullable<T.UpdateCategoryData['body']>['name'], null | undefined>;
    description?: Exclude<NonNullable<T.UpdateCategoryData['body']>['description'], null | undefined>;
    parent?: Exclude<NonNullable<T.UpdateCategoryData['body']>['parent'], null | undefined>;
  };
  createTag: {
    name?: Exclude<NonNullable<T.CreateTagData['body']>['name'], null | undefined>;
    description?: Exclude<NonNullable<T.CreateTagData['body']>['description'], null | undefined>;
  };
  updateTag: {
    name?: Exclude<NonNullable<T.UpdateTagData['body']>['name'], null | undefined>;
    description?: Exclude<NonNullable<T.UpdateTagData['body']>['description'], null | undefined>;
  };
  createTaxonomyTerm: {
    name?: Exclude<NonNullable<T.CreateTaxonomyTermData['body']>['name'], null | undefined>;
    description?: Exclude<NonNullable<T.CreateTaxonomyTermData['body']>['description'], null | undefined>;
    parent?: number;
  };
  updateTaxonomyTerm: {
    name?: Exclude<NonNullable<T.UpdateTaxonomyTermData['body']>['name'], null | undefined>;
    description?: Exclude<NonNullable<T.UpdateTaxonomyTermData['body']>['description'], null | undefined>;
    parent?: number;
  };
  autosavePost: {
    title?: Exclude<NonNullable<T.AutosavePostData['body']>['title'], null | undefined>;
    content?: Exclude<NonNullable<T.AutosavePostData['body']>['content'], null | undefined>;
    excerpt?: Exclude<NonNullable<T.AutosavePostData['body']>['excerpt'], null | undefined>;
  };
  uploadMedia: {
    media?: UploadedFile[];
    media_urls?: Exclude<NonNullable<T.UploadMediaData['body']>['media_urls'], null | undefined>;
    attrs?: Exclude<NonNullable<T.UploadMediaData['body']>['attrs'], null | undefined>;
  };
  updateMedia: {
    title?: Exclude<NonNullable<T.UpdateMediaData['body']>['title'], null | undefined>;
    caption?: Exclude<NonNullable<T.UpdateMediaData['body']>['caption'], null | undefined>;
    description?: Exclude<NonNullable<T.UpdateMediaData['body']>['description'], null | undefined>;
    alt?: Exclude<NonNullable<T.UpdateMediaData['body']>['alt'], null | undefined>;
    parent_id?: number;
  };
  editMediaV12: {
    title?: Exclude<NonNullable<T.EditMediaV12Data['body']>['title'], null | undefined>;
    caption?: Exclude<NonNullable<T.EditMediaV12Data['body']>['caption'], null | undefined>;
    description?: Exclude<NonNullable<T.EditMediaV12Data['body']>['description'], null | undefined>;
    alt?: Exclude<NonNullable<T.EditMediaV12Data['body']>['alt'], null | undefined>;
    parent_id?: number;
    media?: UploadedFile[];
    media_url?: Exclude<NonNullable<T.EditMediaV12Data['body']>['media_url'], null | undefined>;
  };
}

/**
 * The query parameters of each operation that name a cast, as the casting
 * step hands them on (a query always gets defaults); the others pass
 * through as the request gave them.
 */
export interface CastQueries {
  listPosts: {
    number: number;
    order: 'DESC' | 'ASC';
    order_by: 'date' | 'modified' | 'title' | 'comment_count' | 'ID';
    sticky: 'include' | 'exclude' | 'require';
  };
  listPostsV12: {
    number: number;
    order: 'DESC' | 'ASC';
    order_by: 'date' | 'modified' | 'title' | 'comment_count' | 'ID';
    sticky: 'include' | 'exclude' | 'require';
  };
  listMedia: {
    order: 'DESC' | 'ASC';
    order_by: 'date' | 'title' | 'ID';
  };
}
