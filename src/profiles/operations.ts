import type * as sdk from '../../generated/profiles/sdk.gen.js';
import type * as T from '../../generated/profiles/types.gen.js';
import type { HandlerMap, SameKeys, SdkOperations } from '../http/handlers.js';

/** The operations of `openapi/profiles.yaml` with their generated request and response types. */
export interface ProfilesOperations {
  getProfileById: { data: T.GetProfileByIdData; responses: T.GetProfileByIdResponses };
  getOpenApiDocument: { data: T.GetOpenApiDocumentData; responses: T.GetOpenApiDocumentResponses };
}

/** Who is calling: anonymous, or the holder of an API key. */
export type ProfilesPrincipal = { kind: 'anonymous' } | { kind: 'key'; keyId: string };

export type ProfilesHandlers = HandlerMap<ProfilesOperations, ProfilesPrincipal>;

/** Fails the type check when the contract gains or loses an operation that this list does not. */
export const profilesOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof ProfilesOperations> = true;
