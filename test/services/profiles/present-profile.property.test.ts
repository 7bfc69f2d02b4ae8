// @store-independent
import { fileURLToPath } from 'node:url';
import { fc, test } from '@fast-check/vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect } from 'vitest';
import { describeErrors } from '../../../src/platform/contract/ajv.js';
import { loadContract } from '../../../src/platform/contract/compile.js';
import { CONTACT_FIELDS, type Profile } from '../../../src/services/profiles/domain/profile.js';
import { ANONYMOUS_VERIFIED_ACCOUNTS, presentProfile } from '../../../src/services/profiles/http/presentProfile.js';
import { emailHashes } from '../../../src/accounts/email.js';
import type { ProfileRecord } from '../../../src/services/profiles/import/profileRecord.js';
import { validateProfileRecords } from '../../../src/services/profiles/import/readProfileImport.js';
import { realProfileProblems } from '../../support/realProfileSchema.js';
import { KEYED_ONLY_FIELDS } from './support.js';
import { VERIFIED_ACCOUNT_SERVICES } from '../../../src/services/profiles/domain/verifiedAccountServices.js';

const contract = await loadContract(fileURLToPath(new URL('../../../openapi/profiles.yaml', import.meta.url)));
const schemas = (contract.dereferenced.components as { schemas: Record<string, object> }).schemas;
const ajv = new Ajv2020({ strict: false });
(addFormats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
const validAnonymous = ajv.compile(schemas.AnonymousProfile!);
const validAuthenticated = ajv.compile(schemas.AuthenticatedProfile!);
const LINKS = {
  profiles: 'https://profiles.example.com',
  avatars: 'https://avatars.example.com/avatar',
  icons: 'https://profiles.example.com/icons',
};

const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);
const text = fc.string({ maxLength: 40 });
const url = fc.webUrl({ withQueryParameters: true, withFragments: true });
const link = fc.record({ label: text, url });
const flag = fc.boolean();

/** Any record the import accepts: the profiles a store can hold. */
const profileRecord: fc.Arbitrary<ProfileRecord> = fc.record(
  {
    email: fc
      .tuple(word, word, fc.constantFrom('com', 'org', 'example'))
      .map(([local, domain, tld]) => `${local}@${domain}.${tld}`),
    slug: fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}$/),
    display_name: fc.string({ minLength: 1, maxLength: 30 }),
    avatar_alt_text: text,
    location: text,
    description: text,
    job_title: text,
    company: text,
    pronunciation: text,
    pronouns: text,
    first_name: text,
    last_name: text,
    timezone: fc.constantFrom('', 'UTC', 'Europe/Bratislava', 'America/Argentina/Buenos_Aires'),
    languages: fc
      .uniqueArray(fc.constantFrom('en', 'fr', 'pt-BR', 'sk', 'zh-Hant'), { maxLength: 3 })
      .chain((codes) =>
        fc
          .integer({ min: -1, max: codes.length - 1 })
          .map((primary) =>
            codes.map((code, index) =>
              index === primary
                ? { code, name: code.toUpperCase(), is_primary: true }
                : { code, name: code.toUpperCase() },
            ),
          ),
      ),
    interests: fc.uniqueArray(
      fc.record({ id: fc.integer({ min: 1, max: 10_000 }), name: fc.string({ minLength: 1, maxLength: 20 }) }),
      {
        selector: (interest) => interest.id,
        maxLength: 4,
      },
    ),
    is_organization: flag,
    header_image: fc.constantFrom('', "url('https://images.example.com/h.jpg') no-repeat 50% 1% / 100%"),
    background_color: fc.constantFrom(
      '',
      '#fff',
      'rgb(33, 0, 166)',
      'linear-gradient(135deg, rgb(2, 3, 129) 0%, rgb(40, 116, 252) 100%)',
    ),
    links: fc.array(link, { maxLength: 4 }),
    contact_info: fc.record(
      {
        home_phone: fc.record({ value: fc.string({ minLength: 1, maxLength: 15 }), public: flag }),
        work_phone: fc.record({ value: fc.string({ minLength: 1, maxLength: 15 }), public: flag }),
        cell_phone: fc.record({ value: fc.string({ minLength: 1, maxLength: 15 }), public: flag }),
        email: fc.record({ value: fc.tuple(word, word).map(([a, b]) => `${a}@${b}.example`), public: flag }),
        contact_form: fc.record({ value: url, public: flag }),
        calendar: fc.record({ value: url, public: flag }),
      },
      { requiredKeys: [] },
    ),
    payments: fc.record(
      {
        public: flag,
        links: fc.array(link, { maxLength: 3 }),
        crypto_wallets: fc.array(
          fc.record({
            label: fc.string({ minLength: 1, maxLength: 5 }),
            address: fc.string({ minLength: 1, maxLength: 42 }),
          }),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: ['public'] },
    ),
    gallery: fc.array(fc.record({ url, alt_text: text }, { requiredKeys: ['url'] }), { maxLength: 4 }),
    verified_accounts: fc.array(
      fc.record(
        {
          service_type: fc.constantFrom(...VERIFIED_ACCOUNT_SERVICES.map((service) => service.id)),
          service_label: fc.string({ minLength: 1, maxLength: 12 }),
          service_icon: url,
          url,
          is_hidden: flag,
        },
        { requiredKeys: ['service_type', 'url'] },
      ),
      { maxLength: 9 },
    ),
    registration_date: fc.option(
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    ),
    last_profile_edit: fc.option(
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    ),
  },
  { requiredKeys: ['email', 'slug', 'display_name'] },
);

/** The stored profile an accepted record becomes, with or without an uploaded avatar image. */
const storedProfile = fc
  .tuple(profileRecord, fc.option(fc.stringMatching(/^[0-9a-f]{64}$/)))
  .map(([record, avatarDigest]): Profile => {
    const [owned] = validateProfileRecords([record], new Date('2026-11-22T00:00:00Z'));
    return { emailHash: emailHashes(owned!.email).sha256, avatarDigest, ...owned!.profile };
  });

describe('what a profile shows to an anonymous caller', () => {
  test.prop([storedProfile])('is a valid AnonymousProfile that carries no authenticated-only field', (profile) => {
    const answer = presentProfile(profile, 'anonymous', LINKS);
    expect(validAnonymous(answer), describeErrors(validAnonymous.errors ?? [])).toBe(true);
    for (const field of KEYED_ONLY_FIELDS) expect(answer).not.toHaveProperty(field);
  });

  test.prop([storedProfile])(
    "carries the profile card's header image and background, as keyed answers do",
    (profile) => {
      const answer = presentProfile(profile, 'anonymous', LINKS);
      expect(answer).toMatchObject({ header_image: profile.headerImage, background_color: profile.backgroundColor });
    },
  );

  test.prop([storedProfile])(
    'always points avatar_url at the avatar images by hash, uploaded image or not',
    (profile) => {
      expect(presentProfile(profile, 'anonymous', LINKS).avatar_url).toBe(`${LINKS.avatars}/${profile.emailHash}`);
      expect(presentProfile(profile, 'keyed', LINKS).avatar_url).toBe(`${LINKS.avatars}/${profile.emailHash}`);
    },
  );

  test.prop([storedProfile])('lists the first 4 verified accounts the owner has not hidden', (profile) => {
    const answer = presentProfile(profile, 'anonymous', LINKS);
    const visible = profile.verifiedAccounts.filter((account) => !account.hidden);
    expect(answer.verified_accounts.map((account) => account.url)).toEqual(
      visible.slice(0, ANONYMOUS_VERIFIED_ACCOUNTS).map((account) => account.url),
    );
    expect(answer.verified_accounts.every((account) => !account.is_hidden)).toBe(true);
  });

  test.prop([storedProfile])(
    "links each account's service icon at <icons>/<service_type>.svg, whatever icon its record carried",
    (profile) => {
      for (const audience of ['anonymous', 'keyed'] as const) {
        for (const account of presentProfile(profile, audience, LINKS).verified_accounts) {
          expect(account.service_icon).toBe(`${LINKS.icons}/${account.service_type}.svg`);
        }
      }
    },
  );
});

describe('what a profile shows to a keyed caller', () => {
  test.prop([storedProfile])('is a valid AuthenticatedProfile', (profile) => {
    const answer = presentProfile(profile, 'keyed', LINKS);
    expect(validAuthenticated(answer), describeErrors(validAuthenticated.errors ?? [])).toBe(true);
  });

  test.prop([storedProfile])(
    'validates against the real published Profile schema (registration_date a date, as the seed says)',
    (profile) => {
      expect(realProfileProblems(presentProfile(profile, 'anonymous', LINKS))).toBeNull();
      expect(realProfileProblems(presentProfile(profile, 'keyed', LINKS))).toBeNull();
    },
  );

  test.prop([storedProfile])('lists every visible verified account and counts the hidden ones too', (profile) => {
    const answer = presentProfile(profile, 'keyed', LINKS);
    expect(answer.verified_accounts).toHaveLength(profile.verifiedAccounts.filter((account) => !account.hidden).length);
    expect(answer.number_verified_accounts).toBe(profile.verifiedAccounts.length);
  });

  test.prop([storedProfile])(
    'carries the personal details, languages numbered from 1, interests with their slugs',
    (profile) => {
      const answer = presentProfile(profile, 'keyed', LINKS);
      expect(answer).toMatchObject({
        first_name: profile.firstName,
        last_name: profile.lastName,
        timezone: profile.timezone,
        is_organization: profile.isOrganization,
        header_image: profile.headerImage,
        background_color: profile.backgroundColor,
      });
      expect(answer.languages).toEqual(
        profile.languages.map((l, i) => ({ code: l.code, name: l.name, is_primary: l.isPrimary, order: i + 1 })),
      );
      expect(answer.interests.map(({ id, name }) => ({ id, name }))).toEqual(profile.interests);
      for (const interest of answer.interests)
        expect(interest.slug).toMatch(new RegExp(`^${interest.id}(-[\\p{L}\\p{N}]+)*$`, 'u'));
    },
  );

  test.prop([storedProfile])('shows only public contact details and payments', (profile) => {
    const answer = presentProfile(profile, 'keyed', LINKS);
    const publicFields = CONTACT_FIELDS.filter((field) => profile.contactInfo[field]?.public);
    if (publicFields.length === 0) expect(answer).not.toHaveProperty('contact_info');
    else expect(Object.keys(answer.contact_info ?? {}).sort()).toEqual([...publicFields].sort());
    if (!profile.payments.public) expect(answer.payments).toEqual({ links: [], crypto_wallets: [] });
    else expect(answer.payments.links).toHaveLength(profile.payments.links.length);
  });
});
