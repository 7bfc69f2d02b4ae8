import { CONTACT_FIELDS, type ContactField } from '../domain/profile.js';
import { SLUG } from '../domain/identifier.js';

/**
 * One profile in an import file (see the README, "Profiles import format").
 * Optional text fields default to `""`, lists to `[]`; a record replaces
 * the owner's whole profile.
 */
export interface ProfileRecord {
  /** The owner's primary email: the profile is found by its hashes. */
  email: string;
  slug: string;
  display_name: string;
  avatar_url?: string;
  avatar_alt_text?: string;
  location?: string;
  description?: string;
  job_title?: string;
  company?: string;
  pronunciation?: string;
  pronouns?: string;
  links?: { label: string; url: string }[];
  /** Each detail with whether the owner made it public. */
  contact_info?: Partial<Record<ContactField, { value: string; public: boolean }>>;
  payments?: {
    public: boolean;
    links?: { label: string; url: string }[];
    crypto_wallets?: { label: string; address: string }[];
  };
  gallery?: { url: string; alt_text?: string }[];
  verified_accounts?: {
    service_type: string;
    service_label: string;
    service_icon: string;
    url: string;
    is_hidden?: boolean;
  }[];
  /** Year-month-day, or null when unknown (the default). */
  registration_date?: string | null;
  /** ISO-8601 date-time, or null when unknown; defaults to the time of the import. */
  last_profile_edit?: string | null;
}

const text = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const url = { type: 'string', format: 'uri' } as const;
const link = {
  type: 'object',
  required: ['label', 'url'],
  additionalProperties: false,
  properties: { label: text, url },
} as const;
const contactDetail = (value: object) => ({
  type: 'object',
  required: ['value', 'public'],
  additionalProperties: false,
  properties: { value, public: { type: 'boolean' } },
});
const CONTACT_VALUE: Record<ContactField, object> = {
  home_phone: nonEmpty,
  work_phone: nonEmpty,
  cell_phone: nonEmpty,
  email: { type: 'string', format: 'email' },
  contact_form: url,
  calendar: url,
};

/**
 * JSON Schema of a `ProfileRecord`. Formats match the contract's, so
 * whatever an import accepts renders as a valid answer.
 */
export const profileRecordSchema = {
  type: 'object',
  required: ['email', 'slug', 'display_name'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', format: 'email' },
    slug: { type: 'string', pattern: SLUG.source },
    display_name: nonEmpty,
    avatar_url: { anyOf: [url, { type: 'string', const: '' }] },
    avatar_alt_text: text,
    location: text,
    description: text,
    job_title: text,
    company: text,
    pronunciation: text,
    pronouns: text,
    links: { type: 'array', items: link },
    contact_info: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(CONTACT_FIELDS.map((field) => [field, contactDetail(CONTACT_VALUE[field])])),
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
        required: ['service_type', 'service_label', 'service_icon', 'url'],
        additionalProperties: false,
        properties: {
          service_type: nonEmpty,
          service_label: nonEmpty,
          service_icon: url,
          url,
          is_hidden: { type: 'boolean' },
        },
      },
    },
    registration_date: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
    last_profile_edit: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
  },
} as const;
