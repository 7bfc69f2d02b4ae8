// This file is generated from openapi/developer.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/**
 * The operations of the contract by operationId: their generated request and
 * response types, and the headers each status declares (required ones required).
 */
export interface Operations {
  signUp: {
    data: T.SignUpData;
    responses: T.SignUpResponses;
    headers: {
      202: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getSession: {
    data: T.GetSessionData;
    responses: T.GetSessionResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      204: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  logIn: {
    data: T.LogInData;
    responses: T.LogInResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Set-Cookie': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  logOut: {
    data: T.LogOutData;
    responses: T.LogOutResponses;
    headers: {
      204: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Set-Cookie': string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  resendVerification: {
    data: T.ResendVerificationData;
    responses: T.ResendVerificationResponses;
    headers: {
      202: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  verifyEmail: {
    data: T.VerifyEmailData;
    responses: T.VerifyEmailResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  requestEmailChange: {
    data: T.RequestEmailChangeData;
    responses: T.RequestEmailChangeResponses;
    headers: {
      202: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Retry-After': string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  confirmEmailChange: {
    data: T.ConfirmEmailChangeData;
    responses: T.ConfirmEmailChangeResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      409: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  changePassword: {
    data: T.ChangePasswordData;
    responses: T.ChangePasswordResponses;
    headers: {
      204: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  deleteAccount: {
    data: T.DeleteAccountData;
    responses: T.DeleteAccountResponses;
    headers: {
      204: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Set-Cookie': string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  requestPasswordReset: {
    data: T.RequestPasswordResetData;
    responses: T.RequestPasswordResetResponses;
    headers: {
      202: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  resetPassword: {
    data: T.ResetPasswordData;
    responses: T.ResetPasswordResponses;
    headers: {
      204: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listSessions: {
    data: T.ListSessionsData;
    responses: T.ListSessionsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  endSession: {
    data: T.EndSessionData;
    responses: T.EndSessionResponses;
    headers: {
      204: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listApplications: {
    data: T.ListApplicationsData;
    responses: T.ListApplicationsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  createApplication: {
    data: T.CreateApplicationData;
    responses: T.CreateApplicationResponses;
    headers: {
      201: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      409: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  deleteApplication: {
    data: T.DeleteApplicationData;
    responses: T.DeleteApplicationResponses;
    headers: {
      204: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  rotateApplicationKey: {
    data: T.RotateApplicationKeyData;
    responses: T.RotateApplicationKeyResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  revokeApiKey: {
    data: T.RevokeApiKeyData;
    responses: T.RevokeApiKeyResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getOAuthClient: {
    data: T.GetOAuthClientData;
    responses: T.GetOAuthClientResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  setOAuthClient: {
    data: T.SetOAuthClientData;
    responses: T.SetOAuthClientResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getConsentRequest: {
    data: T.GetConsentRequestData;
    responses: T.GetConsentRequestResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  answerConsentRequest: {
    data: T.AnswerConsentRequestData;
    responses: T.AnswerConsentRequestResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      413: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      415: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  listAuthorizations: {
    data: T.ListAuthorizationsData;
    responses: T.ListAuthorizationsResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  revokeAuthorization: {
    data: T.RevokeAuthorizationData;
    responses: T.RevokeAuthorizationResponses;
    headers: {
      204: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      400: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      401: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      403: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      404: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
  getOpenApiDocument: {
    data: T.GetOpenApiDocumentData;
    responses: T.GetOpenApiDocumentResponses;
    headers: {
      200: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      405: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string; 'Allow': string };
      429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      500: { 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
      503: { 'Retry-After': string; 'X-RateLimit-Limit'?: string; 'X-RateLimit-Remaining'?: string; 'X-RateLimit-Reset'?: string };
    };
  };
}

/** The names of the contract's security schemes (`components.securitySchemes`). */
export type SecuritySchemeName = 'sessionCookie';

/** The path prefix the service answers under: its server's path, with each variable at its default. */
export const PREFIX = '/developer/v1';

/** The prefixes of the operations served from a server of their own (their server's path and their path's first segment). */
export const OWN_SERVER_PREFIXES = {} as const;
