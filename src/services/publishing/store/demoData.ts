import type { Insertable } from 'kysely';
import { NEW_POST_DEFAULTS } from '../domain/postColumns.js';
import type { PublishingTables } from './tables.js';

/**
 * The publishing demo data (documented in docs/publishing.md). IDs are fixed so that
 * tests and users can rely on them: site 1 `demo.example.com`, site 2
 * `demo.example.com::blog`; trashed posts 101 to 105 (previous statuses
 * publish, draft, pending, private, future), trashed page 106, trashed post
 * 107 with 25 attachments, terms, metadata and revisions, published post 108
 * (its featured image attachment 202).
 */

type Rows<T extends keyof PublishingTables> = Insertable<PublishingTables[T]>[];

const HOME = 'https://demo.example.com';
const FILES = `${HOME}/files`;

export const sites: Rows<'sites'> = [
  {
    id: 1,
    domain: 'demo.example.com',
    path: '',
    name: 'Harbour Town Demo',
    description: 'News and photos from the harbour',
    lang: 'en',
    is_private: 0,
    extra_post_types: JSON.stringify(['jetpack-portfolio']),
  },
  {
    id: 2,
    domain: 'demo.example.com',
    path: 'blog',
    name: 'Harbour Town Blog',
    description: 'The harbour master writes',
    lang: 'en',
    is_private: 0,
    extra_post_types: '[]',
  },
];

const user = (id: number, login: string, first: string, last: string, email: string, url = '') => ({
  id,
  login,
  email,
  display_name: `${first} ${last}`,
  first_name: first,
  last_name: last,
  nice_name: login,
  url,
  avatar_url: `${HOME}/avatars/${login}.png`,
});

/** The users, each with their role on site 1; the administrator administers site 2 too. */
const team = [
  { role: 'administrator', user: user(1, 'admin', 'Ada', 'Admin', 'ada@demo.example.com') },
  { role: 'author', user: user(2, 'author', 'Ana', 'Author', 'ana@demo.example.com') },
  { role: 'editor', user: user(3, 'editor', 'Eddie', 'Editor', 'eddie@demo.example.com', 'https://eddie.example.net') },
  { role: 'contributor', user: user(4, 'contributor', 'Cora', 'Contributor', 'cora@demo.example.com') },
  { role: 'subscriber', user: user(5, 'subscriber', 'Sam', 'Subscriber', 'sam@demo.example.com') },
  { role: 'moderator', user: user(6, 'moderator', 'Max', 'Moderator', 'max@demo.example.com') },
];

export const users: Rows<'users'> = team.map(({ user }) => user);

export const siteRoles: Rows<'site_roles'> = [
  ...team.map(({ role, user }) => ({ site_id: 1, user_id: user.id, role })),
  { site_id: 2, user_id: 1, role: 'administrator' },
];

/** A site-specific role (the platform allows custom roles): may delete (so trash and restore) any post, edit none. */
export const customRoleCapabilities: Rows<'role_capabilities'> = [
  'read',
  'delete_posts',
  'delete_others_posts',
  'delete_published_posts',
  'delete_private_posts',
].map((capability) => ({ role: 'moderator', capability }));

export const siteFollowers: Rows<'site_followers'> = [
  { site_id: 1, user_id: 3 },
  { site_id: 1, user_id: 5 },
];

type PostRow = Insertable<PublishingTables['posts']>;

const post = (
  fields: Pick<PostRow, 'id' | 'author_id' | 'status' | 'slug' | 'title' | 'content' | 'date' | 'modified'> &
    Partial<PostRow>,
): PostRow => ({
  site_id: 1,
  type: 'post',
  excerpt: '',
  password: '',
  parent_id: null,
  guid: `${HOME}/?p=${fields.id}`,
  ...NEW_POST_DEFAULTS,
  ...fields,
});

/** A post as trashing leaves it: status `trash`, slug suffixed; `trash` holds what was remembered. */
const trashed = (previousStatus: string, trashedAt: string, row: PostRow) => ({
  row: { ...row, status: 'trash', slug: `${row.slug}__trashed`, modified: trashedAt },
  memory: { post_id: row.id, previous_status: previousStatus, trashed_at: trashedAt, original_slug: row.slug },
});

const GALLERY_POST_CONTENT = [
  'The boats came in before sunrise, one after another.',
  'The light was still blue when the first nets came ashore.',
  '',
  '[gallery ids="301,302,303" columns="3"]',
  '',
  'A few more from the north pier:',
  '',
  `[caption id="attachment_301" align="aligncenter" width="1200"]<img src="${FILES}/2026/02/boat-01.jpg" alt="Boat 1" width="1200" height="800" class="size-full wp-image-301" /> The first boat in[/caption]`,
  '',
  '[embed]https://video.example.org/watch?v=harbour-dawn[/embed]',
  '',
  '[pullquote]Every morning is different at the harbour.[/pullquote]',
].join('\n');

const trashedPosts = [
  trashed(
    'publish',
    '2026-03-05T09:30:00.000Z',
    post({
      id: 101,
      author_id: 2,
      status: 'publish',
      slug: 'the-harbours-first-light',
      title: "The harbour's first light",
      content:
        `[caption id="attachment_201" align="alignnone" width="640"]<img src="${FILES}/2026/03/harbour.jpg" alt="Harbour at dawn" width="640" height="480" class="size-full wp-image-201" /> Harbour at dawn[/caption]\n\n` +
        'The harbour at first light, before the boats went out.\n\nMore photos soon.',
      excerpt: 'Photos from the harbour at dawn.',
      date: '2026-03-02T10:00:00.000Z',
      modified: '2026-03-02T10:00:00.000Z',
      featured_media_id: 201,
    }),
  ),
  trashed(
    'draft',
    '2026-03-06T08:00:00.000Z',
    post({
      id: 102,
      author_id: 4,
      status: 'draft',
      slug: 'notes-from-the-market',
      title: 'Notes from the market',
      content: 'Fresh mackerel, and the first strawberries of the year.',
      date: '2026-03-03T08:00:00.000Z',
      modified: '2026-03-03T08:15:00.000Z',
    }),
  ),
  trashed(
    'pending',
    '2026-03-06T08:05:00.000Z',
    post({
      id: 103,
      author_id: 1,
      status: 'pending',
      slug: 'spring-opening-hours',
      title: 'Spring opening hours',
      content: 'The harbour office opens at 8 from April.',
      date: '2026-03-04T09:00:00.000Z',
      modified: '2026-03-04T09:00:00.000Z',
    }),
  ),
  trashed(
    'private',
    '2026-03-06T08:10:00.000Z',
    post({
      id: 104,
      author_id: 1,
      status: 'private',
      slug: 'board-meeting-minutes',
      title: 'Board meeting minutes',
      content: 'Present: the harbour board.\n\nDecided: new lights on the north pier.',
      date: '2026-03-01T18:00:00.000Z',
      modified: '2026-03-01T18:30:00.000Z',
    }),
  ),
  trashed(
    'future',
    '2026-03-06T08:15:00.000Z',
    post({
      id: 105,
      author_id: 1,
      status: 'future',
      slug: 'summer-festival-programme',
      title: 'Summer festival programme',
      content: 'Music on the quay every evening of the festival week.',
      date: '2031-06-01T09:00:00.000Z',
      modified: '2026-03-04T10:00:00.000Z',
    }),
  ),
  trashed(
    'publish',
    '2026-03-06T08:20:00.000Z',
    post({
      id: 106,
      author_id: 1,
      type: 'page',
      status: 'publish',
      slug: 'our-team',
      title: 'Our team',
      content: 'The people who keep the harbour running.',
      date: '2026-01-10T12:00:00.000Z',
      modified: '2026-01-10T12:00:00.000Z',
      parent_id: 112,
      menu_order: 2,
      page_template: 'templates/full-width.php',
      guid: `${HOME}/?page_id=106`,
      comment_status: 'closed',
      ping_status: 'closed',
    }),
  ),
  trashed(
    'publish',
    '2026-03-06T10:00:00.000Z',
    post({
      id: 107,
      author_id: 1,
      status: 'publish',
      slug: 'morning-at-the-harbour',
      title: 'Morning at the harbour',
      content: GALLERY_POST_CONTENT,
      date: '2026-02-09T12:30:00.000Z',
      modified: '2026-02-09T12:45:00.000Z',
      featured_media_id: 301,
      publicize_urls: JSON.stringify(['https://social.example/@harbourtown/1001']),
    }),
  ),
  trashed(
    'publish',
    '2026-03-06T10:05:00.000Z',
    post({
      id: 109,
      author_id: 4,
      status: 'publish',
      slug: 'fish-market-prices',
      title: 'Fish market prices',
      content: "Prices at this morning's auction.",
      date: '2026-02-20T07:00:00.000Z',
      modified: '2026-02-20T07:00:00.000Z',
    }),
  ),
  trashed(
    'publish',
    '2026-03-06T10:10:00.000Z',
    post({
      id: 110,
      author_id: 1,
      type: 'feedback',
      status: 'publish',
      slug: 'contact-form-message',
      title: 'Contact form message',
      content: 'A message sent through the contact form.',
      date: '2026-02-21T07:00:00.000Z',
      modified: '2026-02-21T07:00:00.000Z',
    }),
  ),
  trashed(
    'draft',
    '2026-03-06T10:15:00.000Z',
    post({
      id: 111,
      author_id: 1,
      type: 'jetpack-portfolio',
      status: 'draft',
      slug: 'harbour-portrait-series',
      title: 'Harbour portrait series',
      content: 'Portraits of the people who work on the quay.',
      date: '2026-02-22T07:00:00.000Z',
      modified: '2026-02-22T07:00:00.000Z',
    }),
  ),
  trashed(
    'publish',
    '2026-01-14T17:00:00.000Z',
    post({
      id: 113,
      author_id: 1,
      status: 'publish',
      slug: 'welcome-to-the-demo-site',
      title: 'Welcome (first version)',
      content: 'An older welcome post, replaced by post 108.',
      date: '2026-01-05T09:00:00.000Z',
      modified: '2026-01-05T09:00:00.000Z',
    }),
  ),
  trashed(
    'publish',
    '2026-03-06T11:00:00.000Z',
    post({
      id: 120,
      site_id: 2,
      author_id: 1,
      status: 'publish',
      slug: 'hello-from-the-blog',
      title: 'Hello from the blog',
      content: "The harbour master's first note.",
      date: '2026-02-01T09:00:00.000Z',
      modified: '2026-02-01T09:00:00.000Z',
      guid: `${HOME}/blog/?p=120`,
    }),
  ),
];

const livePosts: PostRow[] = [
  post({
    id: 108,
    author_id: 1,
    status: 'publish',
    slug: 'welcome-to-the-demo-site',
    title: 'Welcome to the demo site',
    content: 'This is the harbour town demo site.\n\nIts posts live in the trash and out of it.',
    excerpt: '',
    date: '2026-01-15T09:00:00.000Z',
    modified: '2026-01-15T09:30:00.000Z',
    sticky: 1,
    featured_media_id: 202,
  }),
  post({
    id: 112,
    author_id: 1,
    type: 'page',
    status: 'publish',
    slug: 'about',
    title: 'About',
    content: 'About the harbour town.',
    date: '2026-01-10T11:00:00.000Z',
    modified: '2026-01-10T11:00:00.000Z',
    guid: `${HOME}/?page_id=112`,
    comment_status: 'closed',
    ping_status: 'closed',
  }),
];

export const posts: Rows<'posts'> = [...livePosts, ...trashedPosts.map(({ row }) => row)].sort((a, b) => a.id - b.id);
export const trashMeta: Rows<'trash_meta'> = trashedPosts.map(({ memory }) => memory);

const term = (
  id: number,
  taxonomy: string,
  name: string,
  slug: string,
  description = '',
  parent_id = 0,
  site_id = 1,
) => ({
  id,
  site_id,
  taxonomy,
  name,
  slug,
  description,
  parent_id,
});

export const terms: Rows<'terms'> = [
  term(1, 'category', 'Uncategorized', 'uncategorized'),
  term(3, 'category', 'News', 'news', 'News about the site.'),
  term(4, 'category', 'Photography', 'photography', 'Pictures from around the harbour.'),
  term(5, 'category', 'Harbour walks', 'harbour-walks', '', 4),
  term(12, 'post_tag', 'harbour', 'harbour'),
  term(13, 'post_tag', 'boats', 'boats'),
  term(14, 'post_tag', 'dawn', 'dawn'),
  term(15, 'post_tag', 'travel', 'travel'),
  term(20, 'post_format', 'Gallery', 'post-format-gallery'),
  term(30, 'category', 'Uncategorized', 'uncategorized', '', 0, 2),
];

const TERMS_OF_POST: Record<number, number[]> = {
  101: [3, 12],
  102: [1],
  103: [1],
  104: [1],
  105: [3],
  107: [4, 5, 12, 13, 14, 20],
  108: [3, 12, 15],
  109: [1],
  113: [3],
  120: [30],
};
export const postTerms: Rows<'post_terms'> = Object.entries(TERMS_OF_POST).flatMap(([postId, termIds]) =>
  termIds.map((term_id) => ({ post_id: Number(postId), term_id })),
);

/** Attachment 301 was uploaded again last, so it is the most recent although its ID is the lowest. */
const galleryAttachment = (n: number): Insertable<PublishingTables['attachments']> => {
  const id = 300 + n;
  const kind = n === 24 ? 'pdf' : n === 25 ? 'mp3' : 'jpg';
  const file =
    kind === 'pdf' ? 'route-map.pdf' : kind === 'mp3' ? 'harbour-sounds.mp3' : `boat-${String(n).padStart(2, '0')}.jpg`;
  const url = `${FILES}/2026/02/${file}`;
  const portrait = kind === 'jpg' && n % 2 === 0;
  const minutes = n === 1 ? 60 * 24 * 8 : n * 10;
  return {
    id,
    site_id: 1,
    post_id: 107,
    author_id: 1,
    date: new Date(Date.UTC(2026, 1, 1, 8, minutes)).toISOString(),
    url,
    guid: url,
    file,
    mime_type: kind === 'pdf' ? 'application/pdf' : kind === 'mp3' ? 'audio/mpeg' : 'image/jpeg',
    title: kind === 'jpg' ? `Boat ${n}` : kind === 'pdf' ? 'Route map' : 'Harbour sounds',
    caption: kind === 'jpg' ? `Boat ${n} coming in` : '',
    description: '',
    alt: kind === 'jpg' ? `Boat ${n}` : '',
    width: kind === 'jpg' ? (portrait ? 800 : 1200) : 0,
    height: kind === 'jpg' ? (portrait ? 1200 : 800) : 0,
  };
};

export const attachments: Rows<'attachments'> = [
  {
    id: 201,
    site_id: 1,
    post_id: 101,
    author_id: 2,
    date: '2026-03-02T09:55:00.000Z',
    url: `${FILES}/2026/03/harbour.jpg`,
    guid: `${FILES}/2026/03/harbour.jpg`,
    file: 'harbour.jpg',
    mime_type: 'image/jpeg',
    title: 'Harbour at dawn',
    caption: 'Harbour at dawn',
    description: '',
    alt: 'Harbour at dawn',
    width: 640,
    height: 480,
  },
  {
    id: 202,
    site_id: 1,
    post_id: 108,
    author_id: 1,
    date: '2026-01-15T08:55:00.000Z',
    url: `${FILES}/2026/01/harbour-town.jpg`,
    guid: `${FILES}/2026/01/harbour-town.jpg`,
    file: 'harbour-town.jpg',
    mime_type: 'image/jpeg',
    title: 'Harbour town from the hill',
    caption: 'The harbour town from the hill',
    description: '',
    alt: 'Roofs of the harbour town above the quay',
    width: 1200,
    height: 800,
  },
  ...Array.from({ length: 25 }, (_, i) => galleryAttachment(i + 1)),
];

const meta = (id: number, post_id: number, meta_key: string, value: unknown) => ({
  id,
  post_id,
  meta_key,
  meta_value: JSON.stringify(value),
});

export const postMeta: Rows<'post_meta'> = [
  meta(501, 101, 'location_note', 'North pier'),
  meta(502, 107, 'location_note', 'North pier, before sunrise'),
  meta(503, 107, 'geo_latitude', '57.7089'),
  meta(504, 107, 'geo_longitude', '11.9746'),
  meta(505, 107, 'geo_address', 'North pier, Harbour Town'),
  meta(506, 107, '_edit_last', '1'),
  meta(507, 107, '_shoot_notes', { camera: 'X100V', rolls: 2 }),
  meta(508, 108, 'mood', 'cheerful'),
];

/** Who likes each post, and when (user ID, time). */
const LIKES_OF_POST: Record<number, [userId: number, date: string][]> = {
  101: [
    [3, '2026-03-02T11:00:00.000Z'],
    [5, '2026-03-02T12:00:00.000Z'],
    [6, '2026-03-03T08:00:00.000Z'],
  ],
  107: [
    [2, '2026-02-09T13:00:00.000Z'],
    [3, '2026-02-09T14:00:00.000Z'],
    [5, '2026-02-10T09:00:00.000Z'],
  ],
  108: [
    [1, '2026-01-15T10:00:00.000Z'],
    [5, '2026-01-16T10:00:00.000Z'],
  ],
};
export const likes: Rows<'likes'> = Object.entries(LIKES_OF_POST).flatMap(([postId, likers]) =>
  likers.map(([user_id, date]) => ({ post_id: Number(postId), user_id, date })),
);

const comment = (
  id: number,
  post_id: number,
  status: string,
  author: { id: number | null; name: string; email: string; url?: string },
  date: string,
  content: string,
  parent_id: number | null = null,
) => ({
  id,
  post_id,
  parent_id,
  author_id: author.id,
  author_name: author.name,
  author_email: author.email,
  author_url: author.url ?? '',
  date,
  content,
  status,
  status_before_trash: null as string | null,
});

const guest = { id: null, name: 'Lena Visitor', email: 'lena@visitor.example', url: 'https://lena.example' };
const sam = { id: 5, name: 'Sam Subscriber', email: 'sam@demo.example.com' };
const spammer = { id: null, name: 'Cheap boats', email: 'spam@spam.example' };

/** Comments of trashed posts are set aside as the platform does: `post-trashed`, remembering their status. */
const setAside = (row: ReturnType<typeof comment>) => ({
  ...row,
  status_before_trash: row.status,
  status: 'post-trashed',
});

export const comments: Rows<'comments'> = [
  setAside(comment(601, 101, 'approved', guest, '2026-03-02T12:30:00.000Z', 'What a sunrise!')),
  setAside(comment(602, 101, 'approved', sam, '2026-03-02T13:00:00.000Z', 'Agreed, lovely light.', 601)),
  setAside(comment(603, 101, 'spam', spammer, '2026-03-02T14:00:00.000Z', 'Buy boats now')),
  setAside(comment(604, 107, 'approved', guest, '2026-02-09T15:00:00.000Z', "Boat 7 is my uncle's.")),
  setAside(comment(605, 107, 'approved', sam, '2026-02-09T16:00:00.000Z', 'Great set.')),
  setAside(comment(606, 107, 'unapproved', guest, '2026-02-09T17:00:00.000Z', 'Waiting for moderation.')),
  comment(607, 108, 'approved', sam, '2026-01-15T12:00:00.000Z', 'Welcome!\n\nLooking forward to the photos.'),
];

export const revisions: Rows<'revisions'> = [
  {
    id: 151,
    post_id: 107,
    author_id: 1,
    date: '2026-02-09T12:00:00.000Z',
    title: 'Morning at the harbor',
    content: 'The boats came in before sunrise.',
    excerpt: '',
  },
  {
    id: 152,
    post_id: 107,
    author_id: 1,
    date: '2026-02-09T12:40:00.000Z',
    title: 'Morning at the harbour',
    content: GALLERY_POST_CONTENT,
    excerpt: '',
  },
];
