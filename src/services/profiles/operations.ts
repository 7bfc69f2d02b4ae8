import type * as sdk from '../../../generated/profiles/sdk.gen.js';
import type { Operations, SecuritySchemeName } from '../../../generated/profiles/contract.gen.js';
import type * as T from '../../../generated/profiles/types.gen.js';
import type { SameKeys, SdkOperations } from '../../platform/pipeline/handlerTypes.js';
import type { ServiceTypes } from '../../platform/serviceTypes.js';
import type { RateLimitHeader } from '../../platform/security/limits.js';

/**
 * The answers of `getAvatar` as a handler gives them: the PNG as bytes (the
 * generated type says `Blob`, a client's view), the redirect to the
 * caller's own default image (no body), and the `d=404` answer, which is an
 * answer like any other (cached briefly), not an error.
 */
export type AvatarAnswers = {
  200: Buffer;
  302: undefined;
  404: T.ProfilesError;
};

/** The answer of `getQrCodeBySha256Hash` as a handler gives it: the PNG as bytes. */
export type QrCodeAnswers = { 200: Buffer };

/** The answer of `getVerifiedAccountServiceIcon` as a handler gives it: the SVG as bytes (an unknown name is thrown, `iconNotFound`). */
export type IconAnswers = { 200: Buffer };

/**
 * The operations of `openapi/profiles.yaml` with their generated request and
 * response types; `getAvatar`, `getQrCodeBySha256Hash` and
 * `getVerifiedAccountServiceIcon` answer bytes.
 */
export type ProfilesOperations = Omit<
  Operations,
  'getAvatar' | 'getQrCodeBySha256Hash' | 'getVerifiedAccountServiceIcon'
> & {
  getAvatar: { data: T.GetAvatarData; responses: AvatarAnswers; headers: Operations['getAvatar']['headers'] };
  getQrCodeBySha256Hash: {
    data: T.GetQrCodeBySha256HashData;
    responses: QrCodeAnswers;
    headers: Operations['getQrCodeBySha256Hash']['headers'];
  };
  getVerifiedAccountServiceIcon: {
    data: T.GetVerifiedAccountServiceIconData;
    responses: IconAnswers;
    headers: Operations['getVerifiedAccountServiceIcon']['headers'];
  };
};

/**
 * Who is calling: anonymous, the holder of an API key (of one of an
 * account's applications), or an app acting for a person with their OAuth
 * access token (the `/me` reads).
 */
export type ProfilesPrincipal =
  | { kind: 'anonymous' }
  | { kind: 'key'; keyId: string; accountId: string; inbox: string }
  | { kind: 'person'; accountId: string; scopes: ReadonlySet<string> };

/**
 * The required headers each operation's policy writes, so its handler does
 * not: the rate limits of lookups and avatars (admit steps), the `ETag` of
 * lookups and of the contract document (the JSON presenter).
 */
export type ProfilesPolicyHeaders = {
  getProfileById: { admit: RateLimitHeader; present: 'ETag' };
  getProfileInferredInterestsById: { admit: RateLimitHeader; present: 'ETag' };
  searchProfilesByVerifiedAccount: { admit: RateLimitHeader; present: 'ETag' };
  getAvatar: { admit: RateLimitHeader };
  getQrCodeBySha256Hash: { admit: RateLimitHeader };
  getVerifiedAccountServiceIcon: { admit: RateLimitHeader };
  getVerifiedAccountServices: { admit: RateLimitHeader; present: 'ETag' };
  getOpenApiDocument: { present: 'ETag' };
  getProfile: { admit: RateLimitHeader };
  associatedEmail: { admit: RateLimitHeader };
};

/** The module's types from `openapi/profiles.yaml` (see `ServiceTypes`). */
type Profiles = ServiceTypes<ProfilesOperations, ProfilesPrincipal, SecuritySchemeName, ProfilesPolicyHeaders>;
export type ProfilesHandlers = Profiles['handlers'];
export type ProfilesPolicies = Profiles['policies'];
export type ProfilesDefinition = Profiles['definition'];
export type ProfilesSecurity = Profiles['security'];

/** Fails the type check when the generated operations and the generated SDK ever name different operations. */
export const profilesOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof ProfilesOperations> = true;
