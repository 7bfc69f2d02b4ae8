import { describe, expect, it } from 'vitest';
import { emailHashes } from '../../src/profiles/domain/emailHash.js';
import type { ProfileRecord } from '../../src/profiles/import/profileRecord.js';
import { readProfileImport, validateProfileRecords } from '../../src/profiles/import/readProfileImport.js';

const IMPORTED_AT = new Date('2026-11-22T10:11:12.345Z');
const fresh = (n: number): ProfileRecord => ({ email: `new${n}@example.com`, slug: `new-${n}`, display_name: `New ${n}` });
const account = { service_type: 'github', service_label: 'GitHub', service_icon: 'https://icons.example.com/gh.svg', url: 'https://github.com/x' };
const rejection = (records: unknown) => {
  try {
    validateProfileRecords(records, IMPORTED_AT);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the records were accepted');
};

describe('a valid record', () => {
  it('fills every optional field with its empty value', () => {
    const [owned] = validateProfileRecords([fresh(1)], IMPORTED_AT);
    expect(owned).toEqual({
      email: 'new1@example.com',
      profile: {
        slug: 'new-1',
        displayName: 'New 1',
        avatarUrl: '',
        avatarAltText: '',
        location: '',
        description: '',
        jobTitle: '',
        company: '',
        pronunciation: '',
        pronouns: '',
        links: [],
        contactInfo: {},
        payments: { public: false, links: [], cryptoWallets: [] },
        gallery: [],
        verifiedAccounts: [],
        registrationDate: null,
        lastProfileEdit: '2026-11-22T10:11:12Z',
      },
    });
  });

  it('keeps an explicit null last edit, and writes a given one in UTC to the second', () => {
    const [unknown, given] = validateProfileRecords(
      [
        { ...fresh(1), last_profile_edit: null },
        { ...fresh(2), last_profile_edit: '2026-01-02T03:04:05.999-02:00' },
      ],
      IMPORTED_AT,
    );
    expect(unknown!.profile.lastProfileEdit).toBeNull();
    expect(given!.profile.lastProfileEdit).toBe('2026-01-02T05:04:05Z');
  });

  it('maps hidden flags, gallery alt text and contact visibility', () => {
    const [owned] = validateProfileRecords(
      [
        {
          ...fresh(1),
          gallery: [{ url: 'https://img.example.com/1.jpg', alt_text: 'One' }, { url: 'https://img.example.com/2.jpg' }],
          verified_accounts: [account, { ...account, is_hidden: true }],
          contact_info: { calendar: { value: 'https://cal.example.com', public: true } },
        },
      ],
      IMPORTED_AT,
    );
    expect(owned!.profile.gallery).toEqual([{ url: 'https://img.example.com/1.jpg', altText: 'One' }, { url: 'https://img.example.com/2.jpg' }]);
    expect(owned!.profile.verifiedAccounts.map((a) => a.hidden)).toEqual([false, true]);
    expect(owned!.profile.contactInfo).toEqual({ calendar: { value: 'https://cal.example.com', public: true } });
  });
});

describe('an invalid record rejects the whole batch, naming the record (1-based) and field', () => {
  it.each([
    ['a bad URL deep in a record', { ...fresh(2), payments: { public: true, links: [{ label: 'x', url: 'nope' }] } }, 'record 2, field payments.links[0].url: must match format "uri"'],
    ['a missing required field', { email: 'x@example.com', slug: 'x' }, 'record 2, field display_name: is required'],
    ['an empty display name', { ...fresh(2), display_name: '' }, 'record 2, field display_name: must NOT have fewer than 1 characters'],
    ['an unknown field', { ...fresh(2), nickname: 'Al' }, 'record 2, field nickname: is not a field of the import format'],
    ['a contact detail without its public flag', { ...fresh(2), contact_info: { email: { value: 'a@b.example' } } }, 'record 2, field contact_info.email.public: is required'],
    ['an unknown contact detail', { ...fresh(2), contact_info: { fax: { value: '1', public: true } } }, 'record 2, field contact_info.fax: is not a field of the import format'],
    ['payments without their public flag', { ...fresh(2), payments: { links: [] } }, 'record 2, field payments.public: is required'],
    ['a bad email', { ...fresh(2), email: 'not-an-email' }, 'record 2, field email: must match format "email"'],
    ['an avatar that is neither a URL nor empty', { ...fresh(2), avatar_url: 'avatar.png' }, 'record 2, field avatar_url: must match format "uri"'],
    ['an impossible registration date', { ...fresh(2), registration_date: '2026-02-30' }, 'record 2, field registration_date: must match format "date"'],
    ['a last edit without a time zone', { ...fresh(2), last_profile_edit: '2026-01-02T03:04:05' }, 'record 2, field last_profile_edit: must match format "date-time"'],
    ['a slug shaped like an email hash', { ...fresh(2), slug: emailHashes('z@example.com').md5 }, 'record 2, field slug: must not look like an email hash'],
    ['a slug with capitals or spaces', { ...fresh(2), slug: 'Not Ok' }, 'record 2, field slug: must match pattern'],
    ['a slug used twice', { ...fresh(2), slug: 'new-1' }, 'record 2, field slug: repeats record 1'],
    ['an email used twice (in another letter case)', { ...fresh(2), email: 'NEW1@Example.com' }, 'record 2, field email: repeats record 1'],
    ['a record that is not an object', 'alex', 'record 2, field (record): must be object'],
  ])('%s', (_what, second, message) => {
    const text = rejection([fresh(1), second, fresh(3)]);
    expect(text).toContain(message);
    expect(text).toMatch(/; nothing was imported$/);
  });

  it('reports the first invalid record when several are', () => {
    expect(rejection([fresh(1), fresh(2), { ...fresh(3), slug: '' }, { ...fresh(4), email: '' }])).toMatch(/^record 3, field slug/);
  });
});

describe('an import file', () => {
  it('must be JSON', () => {
    expect(() => readProfileImport('{ nope', IMPORTED_AT)).toThrow(/the file is not JSON/);
  });

  it('must hold an array of records', () => {
    expect(() => readProfileImport('{"profiles": []}', IMPORTED_AT)).toThrow(/a JSON array of profile records/);
  });
});
