import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { PlatformConfig } from '../../platform/config.js';
import type { ProfilesDatabase } from './store/tables.js';
import type { ProfileRecord } from './import/profileRecord.js';
import { loadAvatarFiles, validateProfileRecords, type AvatarFileReader } from './import/readProfileImport.js';
import { projectFile } from '../../platform/projectRoot.js';
import { createKyselyProfilesStore } from './store/kyselyProfilesStore.js';

/**
 * The demo profiles' avatar files (`avatar_file` is relative to their
 * folder, as to an import file's), found from the project root so that the
 * compiled and bundled server find them too.
 */
export const readDemoAvatarFile: AvatarFileReader = (file) =>
  readFile(projectFile(`src/services/profiles/demo-avatars/${file}`));

/**
 * The demo profiles (docs/profiles.md, "Demo data"), in the import format. Other
 * tests rely on `alex` (every field, an uploaded avatar image), `sam`
 * (nothing optional) and `quiet` (neither contact info nor payments public,
 * no avatar image); then one plain profile for each publishing demo person
 * (`ada@demo.example.com`, …), who log in to the demo.
 */
export const DEMO_PROFILES: ProfileRecord[] = [
  {
    email: 'alex@example.com',
    slug: 'alex',
    display_name: 'Alex Morgan',
    avatar_file: 'alex.png',
    avatar_alt_text: 'Alex Morgan smiling beside a large dog.',
    location: 'New York, USA',
    description: 'Landscape architect who likes hide and seek.',
    job_title: 'Landscape Architect',
    company: 'ACME Corp',
    pronunciation: 'Al-ex Mor-gan',
    pronouns: 'she/they',
    first_name: 'Alex',
    last_name: 'Morgan',
    timezone: 'America/New_York',
    languages: [
      { code: 'en', name: 'English', is_primary: true },
      { code: 'es', name: 'Spanish' },
    ],
    interests: [
      { id: 1, name: 'photography' },
      { id: 27, name: 'Landscape Architecture' },
    ],
    inferred_interests: [
      { id: 31, name: 'Gardening' },
      { id: 44, name: 'Dogs' },
      { id: 27, name: 'Landscape Architecture' },
    ],
    is_organization: false,
    header_image: "url('https://images.example.com/alex/header.jpg') no-repeat 50% 1% / 100%",
    background_color: 'linear-gradient(135deg, rgb(2, 3, 129) 0%, rgb(40, 116, 252) 100%)',
    links: [
      { label: 'Personal Website', url: 'https://alex.example.com' },
      { label: 'Portfolio', url: 'https://alex.example.com/portfolio' },
    ],
    contact_info: {
      home_phone: { value: '+1 212 555 0100', public: false },
      work_phone: { value: '+1 212 555 0101', public: true },
      cell_phone: { value: '+1 917 555 0102', public: false },
      email: { value: 'hello@alex.example.com', public: true },
      contact_form: { value: 'https://alex.example.com/contact', public: true },
      calendar: { value: 'https://alex.example.com/calendar', public: true },
    },
    payments: {
      public: true,
      links: [
        { label: 'Tip jar', url: 'https://pay.example.com/alex' },
        { label: 'Sponsor', url: 'https://sponsor.example.com/alexmorgan' },
      ],
      crypto_wallets: [
        { label: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
        { label: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      ],
    },
    gallery: [
      { url: 'https://images.example.com/alex/1.jpg', alt_text: 'A sunset over the bay' },
      { url: 'https://images.example.com/alex/2.jpg', alt_text: 'A walled garden in spring' },
      { url: 'https://images.example.com/alex/3.jpg' },
    ],
    verified_accounts: [
      { service_type: 'github', url: 'https://github.com/alexmorgan' },
      { service_type: 'mastodon', url: 'https://mastodon.example/@alexmorgan' },
      { service_type: 'tumblr', url: 'https://alexmorgan.tumblr.example/', is_hidden: true },
      { service_type: 'linkedin', url: 'https://linkedin.example/in/alexmorgan' },
      { service_type: 'flickr', url: 'https://flickr.example/people/alexmorgan' },
      { service_type: 'wordpress', url: 'https://alexmorgan.wordpress.example/' },
    ],
    registration_date: '2019-04-12',
    last_profile_edit: '2026-10-01T12:00:00Z',
  },
  {
    email: 'sam@example.com',
    slug: 'sam',
    display_name: 'Sam',
    registration_date: null,
    last_profile_edit: null,
  },
  {
    email: 'quiet@example.com',
    slug: 'quiet',
    display_name: 'Quinn Quiet',
    avatar_alt_text: 'A closed door.',
    location: 'Reykjavik, Iceland',
    description: 'Keeps to themselves.',
    job_title: 'Archivist',
    company: 'Silent Records',
    pronunciation: 'Kwin Kwy-et',
    pronouns: 'they/them',
    links: [{ label: 'Blog', url: 'https://quiet.example.com' }],
    contact_info: {
      home_phone: { value: '+354 555 0200', public: false },
      work_phone: { value: '+354 555 0201', public: false },
      cell_phone: { value: '+354 555 0202', public: false },
      email: { value: 'quinn@quiet.example.com', public: false },
      contact_form: { value: 'https://quiet.example.com/contact', public: false },
      calendar: { value: 'https://quiet.example.com/calendar', public: false },
    },
    payments: {
      public: false,
      links: [{ label: 'Donate', url: 'https://pay.example.com/quiet' }],
      crypto_wallets: [{ label: 'ETH', address: '0x0000000000000000000000000000000000000001' }],
    },
    gallery: [{ url: 'https://images.example.com/quiet/1.jpg', alt_text: 'An empty library' }],
    verified_accounts: [{ service_type: 'github', url: 'https://github.com/quinnquiet' }],
    registration_date: '2021-02-03',
    last_profile_edit: '2026-09-15T08:30:00Z',
  },
  // The publishing demo people (docs/publishing.md), who log in to the demo: a profile each, so `/v3/me/profile` finds it.
  {
    email: 'ada@demo.example.com',
    slug: 'ada',
    display_name: 'Ada Admin',
    registration_date: null,
    last_profile_edit: null,
  },
  {
    email: 'ana@demo.example.com',
    slug: 'ana',
    display_name: 'Ana Author',
    registration_date: null,
    last_profile_edit: null,
  },
  {
    email: 'eddie@demo.example.com',
    slug: 'eddie',
    display_name: 'Eddie Editor',
    registration_date: null,
    last_profile_edit: null,
  },
  {
    email: 'cora@demo.example.com',
    slug: 'cora',
    display_name: 'Cora Contributor',
    registration_date: null,
    last_profile_edit: null,
  },
  {
    email: 'sam@demo.example.com',
    slug: 'sam-subscriber',
    display_name: 'Sam Subscriber',
    registration_date: null,
    last_profile_edit: null,
  },
  {
    email: 'max@demo.example.com',
    slug: 'max',
    display_name: 'Max Moderator',
    registration_date: null,
    last_profile_edit: null,
  },
];

/** Loads the demo profiles when the store holds no profile yet, through the same validation as an import. */
export async function seedProfilesDemo(db: Kysely<ProfilesDatabase>, _config: PlatformConfig): Promise<void> {
  const store = createKyselyProfilesStore(db);
  if ((await store.countProfiles()) > 0) return;
  await store.saveProfiles(
    await loadAvatarFiles(validateProfileRecords(DEMO_PROFILES, new Date(), { typed: true }), readDemoAvatarFile),
  );
}
