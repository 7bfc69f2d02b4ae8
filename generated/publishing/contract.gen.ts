// This file is generated from openapi/publishing.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/**
 * The operations of the contract by operationId: their generated request and
 * response types, and the headers each status declares (required ones required).
 */
export interface Operations {
  getSite: {
    data: T.GetSiteData;
    responses: T.GetSiteResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getMe: {
    data: T.GetMeData;
    responses: T.GetMeResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getMySites: {
    data: T.GetMySitesData;
    responses: T.GetMySitesResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getMySitesV12: {
    data: T.GetMySitesV12Data;
    responses: T.GetMySitesV12Responses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostCounts: {
    data: T.GetPostCountsData;
    responses: T.GetPostCountsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listPosts: {
    data: T.ListPostsData;
    responses: T.ListPostsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostBySlug: {
    data: T.GetPostBySlugData;
    responses: T.GetPostBySlugResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  bulkDeletePosts: {
    data: T.BulkDeletePostsData;
    responses: T.BulkDeletePostsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  bulkRestorePosts: {
    data: T.BulkRestorePostsData;
    responses: T.BulkRestorePostsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  createPost: {
    data: T.CreatePostData;
    responses: T.CreatePostResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPost: {
    data: T.GetPostData;
    responses: T.GetPostResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  updatePost: {
    data: T.UpdatePostData;
    responses: T.UpdatePostResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      409: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostLikes: {
    data: T.GetPostLikesData;
    responses: T.GetPostLikesResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getMyPostLike: {
    data: T.GetMyPostLikeData;
    responses: T.GetMyPostLikeResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostReplies: {
    data: T.GetPostRepliesData;
    responses: T.GetPostRepliesResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  deletePost: {
    data: T.DeletePostData;
    responses: T.DeletePostResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Cache-Control'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  restorePost: {
    data: T.RestorePostData;
    responses: T.RestorePostResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Cache-Control'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listPostsV12: {
    data: T.ListPostsV12Data;
    responses: T.ListPostsV12Responses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  createPostV12: {
    data: T.CreatePostV12Data;
    responses: T.CreatePostV12Responses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostV12: {
    data: T.GetPostV12Data;
    responses: T.GetPostV12Responses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  updatePostV12: {
    data: T.UpdatePostV12Data;
    responses: T.UpdatePostV12Responses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      409: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostCountsV12: {
    data: T.GetPostCountsV12Data;
    responses: T.GetPostCountsV12Responses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostLikesV12: {
    data: T.GetPostLikesV12Data;
    responses: T.GetPostLikesV12Responses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listPostTypes: {
    data: T.ListPostTypesData;
    responses: T.ListPostTypesResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listCategories: {
    data: T.ListCategoriesData;
    responses: T.ListCategoriesResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  createCategory: {
    data: T.CreateCategoryData;
    responses: T.CreateCategoryResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getCategoryBySlug: {
    data: T.GetCategoryBySlugData;
    responses: T.GetCategoryBySlugResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  updateCategory: {
    data: T.UpdateCategoryData;
    responses: T.UpdateCategoryResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  deleteCategory: {
    data: T.DeleteCategoryData;
    responses: T.DeleteCategoryResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listTags: {
    data: T.ListTagsData;
    responses: T.ListTagsResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  createTag: {
    data: T.CreateTagData;
    responses: T.CreateTagResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getTagBySlug: {
    data: T.GetTagBySlugData;
    responses: T.GetTagBySlugResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  updateTag: {
    data: T.UpdateTagData;
    responses: T.UpdateTagResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  deleteTag: {
    data: T.DeleteTagData;
    responses: T.DeleteTagResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listTaxonomyTerms: {
    data: T.ListTaxonomyTermsData;
    responses: T.ListTaxonomyTermsResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  createTaxonomyTerm: {
    data: T.CreateTaxonomyTermData;
    responses: T.CreateTaxonomyTermResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      409: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getTaxonomyTerm: {
    data: T.GetTaxonomyTermData;
    responses: T.GetTaxonomyTermResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  updateTaxonomyTerm: {
    data: T.UpdateTaxonomyTermData;
    responses: T.UpdateTaxonomyTermResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  deleteTaxonomyTerm: {
    data: T.DeleteTaxonomyTermData;
    responses: T.DeleteTaxonomyTermResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listPostTypeTaxonomies: {
    data: T.ListPostTypeTaxonomiesData;
    responses: T.ListPostTypeTaxonomiesResponses;
    headers: {
      200: { 'Cache-Control'?: string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostAutosave: {
    data: T.GetPostAutosaveData;
    responses: T.GetPostAutosaveResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  autosavePost: {
    data: T.AutosavePostData;
    responses: T.AutosavePostResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPostDiffs: {
    data: T.GetPostDiffsData;
    responses: T.GetPostDiffsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listMedia: {
    data: T.ListMediaData;
    responses: T.ListMediaResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  uploadMedia: {
    data: T.UploadMediaData;
    responses: T.UploadMediaResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getMedia: {
    data: T.GetMediaData;
    responses: T.GetMediaResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  updateMedia: {
    data: T.UpdateMediaData;
    responses: T.UpdateMediaResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  deleteMedia: {
    data: T.DeleteMediaData;
    responses: T.DeleteMediaResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getMediaV12: {
    data: T.GetMediaV12Data;
    responses: T.GetMediaV12Responses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  editMediaV12: {
    data: T.EditMediaV12Data;
    responses: T.EditMediaV12Responses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getMediaFile: {
    data: T.GetMediaFileData;
    responses: T.GetMediaFileResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'ETag': string; 'Cache-Control': string };
      304: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getPageDiffs: {
    data: T.GetPageDiffsData;
    responses: T.GetPageDiffsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getOpenApiDocument: {
    data: T.GetOpenApiDocumentData;
    responses: T.GetOpenApiDocumentResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
}

/** The names of the contract's security schemes (`components.securitySchemes`). */
export type SecuritySchemeName = 'bearerToken';

/** The path prefix the service answers under: its server's path, with each variable at its default. */
export const PREFIX = '/rest/v1.1';

/** The prefixes of the operations served from a server of their own (their server's path and their path's first segment). */
export const OWN_SERVER_PREFIXES = {
  getMySitesV12: '/rest/v1.2',
  listPostsV12: '/rest/v1.2',
  createPostV12: '/rest/v1.2',
  getPostV12: '/rest/v1.2',
  updatePostV12: '/rest/v1.2',
  getPostCountsV12: '/rest/v1.2',
  getPostLikesV12: '/rest/v1.2',
  getMediaV12: '/rest/v1.2',
  editMediaV12: '/rest/v1.2',
  getMediaFile: '/files',
} as const;
