import type { Author } from '../../../../generated/publishing/types.gen.js';
import type { SiteRecord, UserRecord } from '../domain/records.js';
import { profileUrl } from '../domain/links.js';

/**
 * A user as the API shows them (`author`, likers): `email` is `false` unless
 * the caller may see it ("email only in edit context to editors");
 * `site_ID` is the user's primary site, as the platform adds it to every
 * user it shows, and is left out for a user with no site.
 */
export function userObject(user: UserRecord, site: SiteRecord, showEmail: boolean): Author {
  return {
    ID: user.id,
    login: user.login,
    email: showEmail ? user.email : false,
    name: user.displayName,
    first_name: user.firstName,
    last_name: user.lastName,
    nice_name: user.niceName,
    URL: user.url,
    avatar_URL: user.avatarUrl,
    profile_URL: profileUrl(site, user),
    ...(user.primarySiteId === null ? {} : { site_ID: user.primarySiteId }),
  };
}
