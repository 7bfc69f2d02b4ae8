import type { FromSchema } from 'json-schema-to-ts';
import type { SameKeys } from '../../../platform/pipeline/handlerTypes.js';
import { MAX_STORED_INTEGER } from '../../../platform/store/integers.js';
import type { ContactField } from '../domain/profile.js';
import { SLUG } from '../domain/identifier.js';
import { VERIFIED_ACCOUNT_SERVICES, verifiedAccountService } from '../domain/verifiedAccountServices.js';

const text = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const url = { type: 'string', format: 'uri' } as const;
const link = {
  type: 'object',
  required: ['label', 'url'],
  additionalProperties: false,
  properties: { label: text, url },
} as const;
const interest = {
  type: 'object',
  required: ['id', 'name'],
  additionalProperties: false,
  properties: { id: { type: 'integer', minimum: 1, maximum: MAX_STORED_INTEGER }, name: nonEmpty },
} as const;
const contactDetail = <Value extends object>(value: Value) =>
  ({
    type: 'object',
    required: ['value', 'public'],
    additionalProperties: false,
    properties: { value, public: { type: 'boolean' } },
  }) as const;

/**
 * The rules of a schema-valid record that JSON Schema cannot say clearly:
 * the field at fault and the problem, or undefined when there is none.
 * Header images and background colours are shown by browsers as CSS, so
 * only plain values are accepted.
 */
export function detailProblem(record: ProfileRecord): [string, string] | undefined {
  if (record.timezone && !isTimeZone(record.timezone)) {
    return ['timezone', 'must be an IANA time zone name such as Europe/Bratislava'];
  }
  const languages = record.languages ?? [];
  for (const [index, language] of languages.entries()) {
    if (!LANGUAGE_CODE.test(language.code))
      return [`languages[${index}].code`, 'must be a language code such as en or pt-BR'];
    const earlier = languages.findIndex((other) => other.code.toLowerCase() === language.code.toLowerCase());
    if (earlier < index) return [`languages[${index}].code`, `repeats languages[${earlier}]`];
  }
  const primaries = languages.flatMap((language, index) => (language.is_primary ? [index] : []));
  if (primaries.length > 1) return [`languages[${primaries[1]}].is_primary`, 'only one language may be primary'];
  for (const field of ['interests', 'inferred_interests'] as const) {
    const interests = record[field] ?? [];
    for (const [index, interest] of interests.entries()) {
      const earlier = interests.findIndex((other) => other.id === interest.id);
      if (earlier < index) return [`${field}[${index}].id`, `repeats ${field}[${earlier}]`];
    }
  }
  for (const [index, account] of (record.verified_accounts ?? []).entries()) {
    if (!verifiedAccountService(account.service_type)) {
      return [
        `verified_accounts[${index}].service_type`,
        `must be a service of GET /v3/verified-accounts/services (${VERIFIED_ACCOUNT_SERVICES.map((service) => service.id).join(', ')})`,
      ];
    }
  }
  if (record.header_image && !HEADER_IMAGE.test(record.header_image)) {
    return ['header_image', "must be a CSS background of one image: url('https://…') and optional placement words"];
  }
  if (record.background_color && !BACKGROUND_COLOR.test(record.background_color)) {
    return [
      'background_color',
      'must be a CSS colour (#hex, rgb(…), hsl(…), a name) or a linear or radial gradient of colours',
    ];
  }
  return undefined;
}

/** True for a time zone the time zone database knows (`Europe/Bratislava`, `UTC`). */
function isTimeZone(name: string): boolean {
  if (!TIME_ZONE.test(name) || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A CSS `background` of one image URL and optional placement words (`no-repeat 50% 1% / 100%`). */
const HEADER_IMAGE = /^url\('https?:\/\/[^\s'"()\\]+'\)( [A-Za-z0-9%./ -]+)?$/;
/** A CSS colour or a linear or radial gradient of colours, nothing that could load or run anything. */
const BACKGROUND_COLOR =
  /^(#[0-9A-Fa-f]{3,8}|[A-Za-z]+|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\)|(linear|radial)-gradient\([A-Za-z0-9#(),.%\s-]+\))$/;
/** A BCP 47 language tag: `en`, `pt-BR`, `zh-Hant-TW`. */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
/** The shape of an IANA time zone name (the name itself is checked against the time zone database). */
const TIME_ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * One profile in an import file (see docs/profiles.md, "Import format"), as
 * JSON Schema: the one source of the record's rules and of its type
 * (`ProfileRecord`). Optional text fields default to `""`, lists to `[]`; a
 * record replaces the owner's whole profile. Formats match the contract's,
 * so whatever an import accepts renders as a valid answer.
 */
export const profileRecordSchema = {
  type: 'object',
  required: ['email', 'slug', 'display_name'],
  additionalProperties: false,
  properties: {
    email: {
      description: "The owner's primary email: the profile is found by its hashes.",
      type: 'string',
      format: 'email',
    },
    slug: { type: 'string', pattern: SLUG.source },
    display_name: nonEmpty,
    avatar_file: {
      description:
        "The owner's avatar image (PNG, JPEG, WebP or GIF), its path relative to the import file; without it the profile has no uploaded image.",
      ...nonEmpty,
    },
    avatar_alt_text: text,
    location: text,
    description: text,
    job_title: text,
    company: text,
    pronunciation: text,
    pronouns: text,
    first_name: text,
    last_name: text,
    timezone: { description: 'IANA time zone name, e.g. `Europe/Bratislava`.', ...text },
    languages: {
      description: "In the owner's order (the answer numbers them from 1); at most one primary.",
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'name'],
        additionalProperties: false,
        properties: { code: nonEmpty, name: nonEmpty, is_primary: { type: 'boolean' } },
      },
    },
    interests: {
      description: "The owner's own; unique ids; the answer adds each one's slug.",
      type: 'array',
      items: interest,
    },
    inferred_interests: {
      description:
        "Interests inferred for the profile (GET …/inferred-interests); unique ids; the answer adds each one's slug.",
      type: 'array',
      items: interest,
    },
    is_organization: { type: 'boolean' },
    header_image: {
      description: "CSS `background` value: `url('https://…')` and optional placement.",
      type: 'string',
      maxLength: 2048,
    },
    background_color: {
      description: 'CSS colour (`#hex`, `rgb(…)`, `hsl(…)`, a name) or `linear-`/`radial-gradient(…)`.',
      type: 'string',
      maxLength: 256,
    },
    links: { type: 'array', items: link },
    contact_info: {
      description: 'Each detail with whether the owner made it public.',
      type: 'object',
      additionalProperties: false,
      properties: {
        home_phone: contactDetail(nonEmpty),
        work_phone: contactDetail(nonEmpty),
        cell_phone: contactDetail(nonEmpty),
        email: contactDetail({ type: 'string', format: 'email' } as const),
        contact_form: contactDetail(url),
        calendar: contactDetail(url),
      },
    },
    payments: {
      type: 'object',
      required: ['public'],
      additionalProperties: false,
      properties: {
        public: { type: 'boolean' },
        links: { type: 'array', items: link },
        crypto_wallets: {
          type: 'array',
          items: {
            type: 'object',
            required: ['label', 'address'],
            additionalProperties: false,
            properties: { label: nonEmpty, address: nonEmpty },
          },
        },
      },
    },
    gallery: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: { url, alt_text: text },
      },
    },
    verified_accounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['service_type', 'url'],
        additionalProperties: false,
        properties: {
          service_type: { description: 'An id of GET /v3/verified-accounts/services.', ...nonEmpty },
          service_label: {
            description: "Accepted from files of earlier releases and not kept: the label is the service list's.",
            ...nonEmpty,
          },
          service_icon: {
            description: "Accepted from files of earlier releases and not kept: the icon is the service list's.",
            ...url,
          },
          url,
          username: {
            description:
              "The owner's username on the service, as searches find it (any case); by default read from the URL.",
            type: 'string',
            minLength: 1,
            maxLength: 255,
          },
          is_hidden: { type: 'boolean' },
        },
      },
    },
    registration_date: {
      description: 'Year-month-day, or null when unknown (the default).',
      anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
    },
    last_profile_edit: {
      description: 'ISO-8601 date-time, or null when unknown; defaults to the time of the import.',
      anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
    },
  },
} as const;

/** One profile in an import file: the type of what `profileRecordSchema` accepts. */
export type ProfileRecord = FromSchema<typeof profileRecordSchema>;

// The record's contact details are exactly the profile's contact fields: the compiler says which one is missing.
const contactFieldsMatch: SameKeys<keyof NonNullable<ProfileRecord['contact_info']>, ContactField> = true;
void contactFieldsMatch;
