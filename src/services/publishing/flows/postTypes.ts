import type { PostType, PostTypes } from '../../../../generated/publishing/types.gen.js';
import { openSite, type Viewer } from '../domain/access.js';
import type { FlowDeps } from './deps.js';

/**
 * The post types a site exposes, as the platform's `/sites/{site}/post-types`
 * lists them (`WPCOM_JSON_API_List_Post_Types_Endpoint`): each type's name,
 * labels (`get_post_type_labels`), capabilities, flags and supports, for
 * `post`, `page` and the site's extra types.
 */

/** What a type is registered with, beyond the labels made of its two names. */
interface TypeDefinition {
  plural: string;
  singular: string;
  description: string;
  hierarchical: boolean;
  publiclyQueryable: boolean;
  /** `post` or `page`: the names of its capabilities. */
  capabilityType: 'post' | 'page';
  supports: readonly string[];
}

const POST_SUPPORTS = [
  'title',
  'editor',
  'author',
  'thumbnail',
  'excerpt',
  'trackbacks',
  'custom-fields',
  'comments',
  'revisions',
  'post-formats',
];

/** The types this service knows, as the platform (and Jetpack's modules) register them. */
const DEFINITIONS: Readonly<Record<string, TypeDefinition>> = {
  post: {
    plural: 'Posts',
    singular: 'Post',
    description: '',
    hierarchical: false,
    publiclyQueryable: true,
    capabilityType: 'post',
    supports: POST_SUPPORTS,
  },
  page: {
    plural: 'Pages',
    singular: 'Page',
    description: '',
    hierarchical: true,
    // The platform registers pages as not publicly queryable (they are reached by their path).
    publiclyQueryable: false,
    capabilityType: 'page',
    supports: ['title', 'editor', 'author', 'thumbnail', 'page-attributes', 'custom-fields', 'comments', 'revisions'],
  },
  'jetpack-portfolio': {
    plural: 'Projects',
    singular: 'Project',
    description: 'Portfolio Items',
    hierarchical: false,
    publiclyQueryable: true,
    capabilityType: 'post',
    supports: [
      'title',
      'editor',
      'thumbnail',
      'author',
      'comments',
      'publicize',
      'wpcom-markdown',
      'revisions',
      'excerpt',
    ],
  },
  'jetpack-testimonial': {
    plural: 'Testimonials',
    singular: 'Testimonial',
    description: 'Customer Testimonials',
    hierarchical: false,
    publiclyQueryable: true,
    capabilityType: 'page',
    supports: ['title', 'editor', 'thumbnail', 'page-attributes', 'revisions', 'excerpt'],
  },
};

/** Types with the `post_tag` taxonomy: the list adds `tags` to what they support. */
const TYPES_WITH_TAGS: ReadonlySet<string> = new Set(['post']);

/** A type this service does not know by name: its name as both labels, nothing supported beyond title and editor. */
const definitionOf = (name: string): TypeDefinition =>
  DEFINITIONS[name] ?? {
    plural: name,
    singular: name,
    description: '',
    hierarchical: false,
    publiclyQueryable: true,
    capabilityType: 'post',
    supports: ['title', 'editor'],
  };

/** The platform's default labels of a type (`get_post_type_labels`), made of its plural and singular names. */
function labelsOf(definition: TypeDefinition): Record<string, string | null> {
  const { plural, singular, hierarchical } = definition;
  const one = singular.toLowerCase();
  const many = plural.toLowerCase();
  return {
    name: plural,
    singular_name: singular,
    add_new: 'Add New',
    add_new_item: `Add New ${singular}`,
    edit_item: `Edit ${singular}`,
    new_item: `New ${singular}`,
    view_item: `View ${singular}`,
    view_items: `View ${plural}`,
    search_items: `Search ${plural}`,
    not_found: `No ${many} found.`,
    not_found_in_trash: `No ${many} found in Trash.`,
    parent_item_colon: hierarchical ? `Parent ${singular}:` : null,
    all_items: `All ${plural}`,
    archives: `${singular} Archives`,
    attributes: `${singular} Attributes`,
    insert_into_item: `Insert into ${one}`,
    uploaded_to_this_item: `Uploaded to this ${one}`,
    featured_image: 'Featured Image',
    set_featured_image: 'Set featured image',
    remove_featured_image: 'Remove featured image',
    use_featured_image: 'Use as featured image',
    filter_items_list: `Filter ${many} list`,
    items_list_navigation: `${plural} list navigation`,
    items_list: `${plural} list`,
    menu_name: plural,
    name_admin_bar: singular,
  };
}

/** The capability each action on a type needs (`get_post_type_capabilities` with `map_meta_cap`). */
function capabilitiesOf(type: 'post' | 'page'): Record<string, string> {
  const s = `${type}s`;
  return {
    edit_post: `edit_${type}`,
    read_post: `read_${type}`,
    delete_post: `delete_${type}`,
    edit_posts: `edit_${s}`,
    edit_others_posts: `edit_others_${s}`,
    publish_posts: `publish_${s}`,
    read_private_posts: `read_private_${s}`,
    read: 'read',
    delete_posts: `delete_${s}`,
    delete_private_posts: `delete_private_${s}`,
    delete_published_posts: `delete_published_${s}`,
    delete_others_posts: `delete_others_${s}`,
    edit_private_posts: `edit_private_${s}`,
    edit_published_posts: `edit_published_${s}`,
    create_posts: `edit_${s}`,
  };
}

/** One type as the list shows it, in the platform's key order. */
export function postTypeObject(name: string): PostType {
  const definition = definitionOf(name);
  const supports: Record<string, boolean> = Object.fromEntries(definition.supports.map((feature) => [feature, true]));
  if (TYPES_WITH_TAGS.has(name)) supports.tags = true;
  return {
    name,
    label: definition.plural,
    labels: labelsOf(definition),
    description: definition.description,
    map_meta_cap: true,
    capabilities: capabilitiesOf(definition.capabilityType),
    hierarchical: definition.hierarchical,
    public: true,
    show_ui: true,
    publicly_queryable: definition.publiclyQueryable,
    api_queryable: true,
    supports,
  };
}

/** The site's post types (`post`, `page`, then its extra types); 404 `unknown_blog`, and a private site's 403, as every operation. */
export async function listPostTypes(
  deps: Pick<FlowDeps, 'store'>,
  request: { site: string; viewer: Viewer },
): Promise<PostTypes> {
  const { site } = await openSite(deps.store, request.site, request.viewer);
  const types = ['post', 'page', ...site.extraPostTypes.filter((type) => type !== 'post' && type !== 'page')];
  return { found: types.length, post_types: types.map(postTypeObject) };
}
