import type * as sdk from '../../../generated/profiles/sdk.gen.js';
import type * as T from '../../../generated/profiles/types.gen.js';
import type { HandlerMap, PolicyTable, SameKeys, SdkOperations } from '../../platform/http/handlers.js';

/**
 * The answers of `getAvatar` as a handler gives them: the PNG as bytes (the
 * generated type says `Blob`, a client's view), the redirect to the
 * caller's own default image (no body), and the `d=404` answer, which is an
 * answer like any other (cached briefly), not an error.
 */
export type AvatarAnswers = {
  200: Buffer;
  302: undefined;
  404: T.Error;
};

/** The operations of `openapi/profiles.yaml` with their generated request and response types. */
export interface ProfilesOperations {
  getProfileById: { data: T.GetProfileByIdData; responses: T.GetProfileByIdResponses };
  getAvatar: { data: T.GetAvatarData; responses: AvatarAnswers };
  getOpenApiDocument: { data: T.GetOpenApiDocumentData; responses: T.GetOpenApiDocumentResponses };
}

/** Who is calling: anonymous, or the holder of an API key (of one of an account's applications). */
export type ProfilesPrincipal = { kind: 'anonymous' } | { kind: 'key'; keyId: string; accountId: string };

export type ProfilesHandlers = HandlerMap<ProfilesOperations, ProfilesPrincipal>;

/** One policy (admit steps, presenter) per operation of the contract. */
export type ProfilesPolicies = PolicyTable<ProfilesOperations, ProfilesPrincipal>;

/** Fails the type check when the contract gains or loses an operation that this list does not. */
export const profilesOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof ProfilesOperations> = true;
