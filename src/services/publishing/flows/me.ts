import type { Me, MySites } from '../../../../generated/publishing/types.gen.js';
import type { GrantScope } from '../domain/grantScope.js';
import { apiSiteUrl, siteHomeUrl } from '../domain/links.js';
import { apiDate } from '../domain/dates.js';
import { siteObject, type SiteShape } from './siteObject.js';
import type { PresentDeps } from './presentPost.js';
import type { SiteRecord } from '../domain/records.js';
import { publishingUnauthenticated } from '../errors.js';

/** Who asks: the token's user, and (an app's OAuth token) the grant that bounds which sites it may use. */
export interface MeRequest {
  userId: number;
  grant?: GrantScope;
}

/** The sites the token may use: where the user has a role, and (an OAuth token) which the grant covers; in ID order. */
async function tokenSites(deps: Pick<PresentDeps, 'store'>, request: MeRequest): Promise<SiteRecord[]> {
  const ids = (await deps.store.sitesOfUser(request.userId)).filter(
    (id) => !request.grant || request.grant.sites.has(id),
  );
  const sites = await Promise.all(ids.map((id) => deps.store.findSite({ kind: 'id', id })));
  return sites.filter((site): site is SiteRecord => site !== undefined);
}

/** `GET /me`: the token's user as the platform's `/me` shows them, their primary site the first the token may use. */
export async function readMe(deps: PresentDeps, request: MeRequest): Promise<Me> {
  const user = await deps.store.findUserById(request.userId);
  // A token whose user is gone names nobody.
  if (!user) throw publishingUnauthenticated('invalid');
  const [sites, standing] = await Promise.all([
    tokenSites(deps, request),
    user.accountId ? deps.store.accountStanding(user.accountId) : undefined,
  ]);
  const primary = sites[0];
  return {
    ID: user.id,
    display_name: user.displayName,
    username: user.login,
    email: user.email,
    avatar_URL: user.avatarUrl,
    primary_blog: primary?.id ?? 0,
    primary_blog_url: primary ? siteHomeUrl(primary) : '',
    language: primary?.lang ?? 'en',
    site_count: sites.length,
    visible_site_count: sites.length,
    // The account's: whether its address is verified (the dashboard's sign-up link), when it registered.
    email_verified: standing?.emailVerified ?? false,
    ...(standing ? { date: apiDate(standing.registeredAt) } : {}),
    meta: {
      links: {
        self: `${deps.publicUrl}/rest/v1.1/me`,
        ...(primary ? { site: apiSiteUrl(deps.publicUrl, primary.id) } : {}),
      },
    },
  };
}

/** What `GET /me/sites` takes beyond who asks: the version, which sites (`site_visibility`, `filters`), which options. */
export interface MySitesRequest extends MeRequest, SiteShape {
  siteVisibility?: 'all' | 'visible' | 'hidden' | 'deleted';
  /** The `filters` parameter: a comma list of site kinds. */
  filters?: string;
}

/** The kind every site here is, as `filters` names kinds: a hosted site (not Jetpack-connected, not atomic). */
const SITE_KIND = 'wpcom';

/** Whether `filters` keeps a hosted site: when it names no kind, or names `wpcom`. */
function kindKept(filters: string | undefined): boolean {
  const kinds = (filters ?? '')
    .split(',')
    .map((kind) => kind.trim())
    .filter(Boolean);
  return kinds.length === 0 || kinds.includes(SITE_KIND);
}

/**
 * `GET /me/sites` (v1.1 and v1.2): each site the token may use, as `GET
 * /sites/{site}` answers it to the user. Every site is shown in the user's
 * lists (nothing here hides one) and none is ever deleted, so
 * `site_visibility=hidden` and `deleted` list none;
 * `filters` keeps none when it names only kinds other than a hosted site.
 */
export async function readMySites(deps: PresentDeps, request: MySitesRequest): Promise<MySites> {
  if (request.siteVisibility === 'hidden' || request.siteVisibility === 'deleted' || !kindKept(request.filters))
    return { sites: [] };
  const sites = await tokenSites(deps, request);
  const shape: SiteShape = { version: request.version, options: request.options };
  return {
    sites: await Promise.all(
      sites.map((site) =>
        siteObject({ store: deps.store, publicUrl: deps.publicUrl, site, viewerId: request.userId }, shape),
      ),
    ),
  };
}
