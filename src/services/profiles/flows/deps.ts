import type { AvatarImages } from '../avatars/avatarImages.js';
import type { ProfileDirectory } from '../domain/profilesStore.js';

/**
 * What profiles' flows work with. The module builds one object that has it
 * (`profilesDeps` in module.ts) and hands it to the handlers, which hand it
 * to each flow; a flow names the part it reads (`Pick<FlowDeps, …>`).
 */
export interface FlowDeps {
  /** The profiles, each lookup remembered by this instance for `PROFILE_LOOKUP_CACHE_MS`. */
  profiles: ProfileDirectory;
  /** Uploaded avatar images drawn to size, default avatars and QR codes: kept, and drawn through one gate. */
  avatars: AvatarImages;
  /** What `/me` reads of the accounts: the signed-in person's email hashes; without it no person is known. */
  accounts?: AccountEmails;
  /** The profile pages' base (`PUBLIC_URL`), which a QR code points into. */
  publicUrl: string;
}

/** What profiles' flows read of the accounts (which `src/accounts` keeps): a person's email hashes, none when the account is gone. */
export interface AccountEmails {
  emailHashesOf(accountId: string): Promise<{ sha256: string; md5: string } | undefined>;
}
