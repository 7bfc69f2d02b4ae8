import type * as sdk from '../../../generated/profiles/sdk.gen.js';
import type { Operations, SecuritySchemeName } from '../../../generated/profiles/contract.gen.js';
import type * as T from '../../../generated/profiles/types.gen.js';
import type { HandlerMap, PolicyTable, SameKeys, SdkOperations } from '../../platform/http/handlers.js';
import type { CredentialResolver } from '../../platform/http/service.js';

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

/** The operations of `openapi/profiles.yaml` with their generated request and response types; `getAvatar` answers bytes. */
export type ProfilesOperations = Omit<Operations, 'getAvatar'> & { getAvatar: { data: T.GetAvatarData; responses: AvatarAnswers } };

/** Who is calling: anonymous, or the holder of an API key (of one of an account's applications). */
export type ProfilesPrincipal = { kind: 'anonymous' } | { kind: 'key'; keyId: string; accountId: string };

export type ProfilesHandlers = HandlerMap<ProfilesOperations, ProfilesPrincipal>;

/** One policy (admit steps, presenter) per operation of the contract. */
export type ProfilesPolicies = PolicyTable<ProfilesOperations, ProfilesPrincipal>;

/** One credential resolver per security scheme of the contract; a missing or unknown one fails the type check. */
export type ProfilesSecurity = Readonly<Record<SecuritySchemeName, CredentialResolver<ProfilesPrincipal>>>;

/** Fails the type check when the generated operations and the generated SDK ever name different operations. */
export const profilesOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof ProfilesOperations> = true;
