// This file is generated from openapi/oauth.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/**
 * The operations of the contract by operationId: their generated request and
 * response types, and the headers each status declares (required ones required).
 */
export interface Operations {
  getAuthorizationServerMetadata: {
    data: T.GetAuthorizationServerMetadataData;
    responses: T.GetAuthorizationServerMetadataResponses;
    headers: {
      200: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      404: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
  getOpenIdConfiguration: {
    data: T.GetOpenIdConfigurationData;
    responses: T.GetOpenIdConfigurationResponses;
    headers: {
      200: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      404: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
  getJsonWebKeySet: {
    data: T.GetJsonWebKeySetData;
    responses: T.GetJsonWebKeySetResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      404: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
  authorize: {
    data: T.AuthorizeData;
    responses: Record<never, never>;
    headers: {
      303: { 'Location': string; 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      400: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
  resumeAuthorization: {
    data: T.ResumeAuthorizationData;
    responses: Record<never, never>;
    headers: {
      303: { 'Location': string; 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      400: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
  requestToken: {
    data: T.RequestTokenData;
    responses: T.RequestTokenResponses;
    headers: {
      200: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      400: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      401: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
  revokeToken: {
    data: T.RevokeTokenData;
    responses: T.RevokeTokenResponses;
    headers: {
      200: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      400: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      401: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
  getUserInfo: {
    data: T.GetUserInfoData;
    responses: T.GetUserInfoResponses;
    headers: {
      200: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      400: { 'WWW-Authenticate': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      401: { 'WWW-Authenticate': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      403: { 'WWW-Authenticate': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
  postUserInfo: {
    data: T.PostUserInfoData;
    responses: T.PostUserInfoResponses;
    headers: {
      200: { 'Cache-Control': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      400: { 'WWW-Authenticate': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      401: { 'WWW-Authenticate': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      403: { 'WWW-Authenticate': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      500: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
    };
  };
}

/** The names of the contract's security schemes (`components.securitySchemes`). */
export type SecuritySchemeName = never;

/** The path prefix the service answers under: its server's path, with each variable at its default. */
export const PREFIX = '/oauth2';

/** The prefixes of the operations served from a server of their own (their server's path and their path's first segment). */
export const OWN_SERVER_PREFIXES = {
  getAuthorizationServerMetadata: '/.well-known',
} as const;
