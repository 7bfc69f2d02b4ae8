import type { Site } from '../../../../generated/publishing/types.gen.js';
import type { PublishingStore } from '../domain/publishingStore.js';
import type { SiteRecord } from '../domain/records.js';
import { apiSiteUrl, siteHomeUrl } from '../domain/links.js';
import { ALLOWED_FILE_TYPES } from '../media/ingest.js';
import { FORMAT_NAMES } from './writeFields.js';

/** What answering a site needs. */
export interface SiteSource {
  store: PublishingStore;
  publicUrl: string;
  site: SiteRecord;
  /** The caller's user ID; 0 for an anonymous caller. */
  viewerId: number;
}

/** How the caller asked for the site: the REST version (v1.2 names the language `locale`), and the `options` they name. */
export interface SiteShape {
  version?: '1.1' | '1.2';
  /** The option names `options` keeps; undefined keeps all. */
  options?: ReadonlySet<string>;
}

/**
 * The capabilities the site object names (the platform's
 * `SAL_Site::get_capabilities`), each the role capability the server checks
 * for it. Pages are written under the post capabilities here (the post
 * types' rights are the posts'), so `edit_pages` is whether the role may
 * edit posts, as the write checks it. The platform's `own_site`,
 * `activate_wordads`, `view_hosting` and `view_stats` name features this
 * service does not have and are left out (a client reads them as false).
 */
const SITE_CAPABILITIES: Readonly<Record<string, string>> = {
  edit_pages: 'edit_posts',
  edit_posts: 'edit_posts',
  edit_others_posts: 'edit_others_posts',
  edit_others_pages: 'edit_others_posts',
  delete_posts: 'delete_posts',
  delete_others_posts: 'delete_others_posts',
  edit_theme_options: 'edit_theme_options',
  edit_users: 'edit_users',
  list_users: 'list_users',
  manage_categories: 'manage_categories',
  manage_options: 'manage_options',
  moderate_comments: 'moderate_comments',
  promote_users: 'promote_users',
  publish_posts: 'publish_posts',
  upload_files: 'upload_files',
  delete_users: 'delete_users',
  remove_users: 'remove_users',
  activate_plugins: 'activate_plugins',
};

type SiteOptions = NonNullable<Site['options']>;

/**
 * The site's options as the platform's `render_option_keys` names them,
 * those the apps read (WordPressKit `RemoteBlogOptionsHelper`, FluxC
 * `siteResponseToSiteModel`). From the site: its admin and login URLs (built
 * on its home URL as the platform builds them), `blog_public`. From what the
 * server takes: the formats a post may have, the file types an upload may
 * have. Constants, because this service has no such setting
 * (docs/publishing.md, "The site object"): the time zone (every time is
 * answered in UTC), a front page of posts, featured images on, VideoPress
 * and automated transfers off.
 */
function siteOptions(site: SiteRecord): SiteOptions {
  const home = siteHomeUrl(site);
  return {
    timezone: '',
    gmt_offset: 0,
    blog_public: site.isPrivate ? -1 : 1,
    videopress_enabled: false,
    login_url: `${home}/wp-login.php`,
    admin_url: `${home}/wp-admin/`,
    featured_images_enabled: true,
    post_formats: { ...FORMAT_NAMES },
    allowed_file_types: [...ALLOWED_FILE_TYPES],
    show_on_front: 'posts',
    is_automated_transfer: false,
    is_wpcom_atomic: false,
  };
}

/** The options `options` names (all when it names none), in the platform's order. */
function chosenOptions(site: SiteRecord, wanted: ReadonlySet<string> | undefined): SiteOptions {
  const all = siteOptions(site);
  if (!wanted) return all;
  return Object.fromEntries(Object.entries(all).filter(([name]) => wanted.has(name))) as SiteOptions;
}

/**
 * The site as `GET /sites/{ID}` (and each of `GET /me/sites`) answers it.
 * As the platform's site endpoint: `capabilities` only to a user with a role
 * on the site (the capabilities of that role, as the server enforces them,
 * bounded by an OAuth token's grant), `options` only to one who may edit
 * posts there; anyone else gets the fields the platform shows a non-member.
 */
export async function siteObject(
  { store, publicUrl, site, viewerId }: SiteSource,
  shape: SiteShape = {},
): Promise<Site> {
  const [stats, roleCapabilities] = await Promise.all([
    store.siteStats(site.id, viewerId),
    viewerId === 0 ? new Set<string>() : store.capabilitiesOf(site.id, viewerId),
  ]);
  const self = apiSiteUrl(publicUrl, site.id);
  // Every role holds `read`: a caller without any capability has no role on the site (or a grant that leaves it out).
  const member = roleCapabilities.size > 0;
  return {
    ID: site.id,
    name: site.name,
    description: site.description,
    URL: siteHomeUrl(site),
    ...(member
      ? {
          capabilities: Object.fromEntries(
            Object.entries(SITE_CAPABILITIES).map(([name, capability]) => [name, roleCapabilities.has(capability)]),
          ) as Site['capabilities'],
        }
      : {}),
    jetpack: false,
    jetpack_connection: false,
    post_count: stats.publishedPosts,
    subscribers_count: stats.followers,
    ...(shape.version === '1.2' ? { locale: site.lang } : { lang: site.lang }),
    visible: true,
    is_private: site.isPrivate,
    is_following: stats.viewerFollows,
    ...(member && roleCapabilities.has('edit_posts') ? { options: chosenOptions(site, shape.options) } : {}),
    meta: { links: { self, help: `${self}/help`, posts: `${self}/posts/`, comments: `${self}/comments/` } },
  };
}
