// This file is generated from openapi/profiles.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/**
 * The operations of the contract by operationId: their generated request and
 * response types, and the headers each status declares (required ones required).
 */
export interface Operations {
  getProfileById: {
    data: T.GetProfileByIdData;
    responses: T.GetProfileByIdResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      304: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      501: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  searchProfilesByVerifiedAccount: {
    data: T.SearchProfilesByVerifiedAccountData;
    responses: T.SearchProfilesByVerifiedAccountResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      304: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getProfileInferredInterestsById: {
    data: T.GetProfileInferredInterestsByIdData;
    responses: T.GetProfileInferredInterestsByIdResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      304: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'WWW-Authenticate': string };
      404: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getVerifiedAccountServices: {
    data: T.GetVerifiedAccountServicesData;
    responses: T.GetVerifiedAccountServicesResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      304: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getQrCodeBySha256Hash: {
    data: T.GetQrCodeBySha256HashData;
    responses: T.GetQrCodeBySha256HashResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string; 'X-Gravatar-Profile-Status': string };
      304: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string; 'X-Gravatar-Profile-Status': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getProfile: {
    data: T.GetProfileData;
    responses: T.GetProfileResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      401: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'WWW-Authenticate': string };
      404: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  associatedEmail: {
    data: T.AssociatedEmailData;
    responses: T.AssociatedEmailResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'WWW-Authenticate': string };
      403: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'WWW-Authenticate': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getAvatar: {
    data: T.GetAvatarData;
    responses: T.GetAvatarResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      302: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Location': string; 'Cache-Control': string };
      304: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Cache-Control': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getVerifiedAccountServiceIcon: {
    data: T.GetVerifiedAccountServiceIconData;
    responses: T.GetVerifiedAccountServiceIconResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string; 'Content-Security-Policy': string };
      304: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'ETag': string; 'Cache-Control': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getOpenApiDocument: {
    data: T.GetOpenApiDocumentData;
    responses: T.GetOpenApiDocumentResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'ETag': string };
      304: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'ETag': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
}

/** The names of the contract's security schemes (`components.securitySchemes`). */
export type SecuritySchemeName = 'apiKey' | 'oauth';

/** The path prefix the service answers under: its server's path, with each variable at its default. */
export const PREFIX = '/v3';

/** The prefixes of the operations served from a server of their own (their server's path and their path's first segment). */
export const OWN_SERVER_PREFIXES = {
  getAvatar: '/avatar',
  getVerifiedAccountServiceIcon: '/icons',
} as const;
