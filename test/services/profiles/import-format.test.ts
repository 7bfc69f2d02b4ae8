// @store-independent
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AVATAR_UPLOAD_LIMITS } from '../../../src/services/profiles/avatars/avatarUpload.js';
import { emailHashes } from '../../../src/accounts/email.js';
import type { ProfileRecord } from '../../../src/services/profiles/import/profileRecord.js';
import {
  readProfileImport,
  validateProfileRecords,
  type AvatarFileReader,
} from '../../../src/services/profiles/import/readProfileImport.js';

const IMPORTED_AT = new Date('2026-11-22T10:11:12.345Z');
const fresh = (n: number): ProfileRecord => ({
  email: `new${n}@example.com`,
  slug: `new-${n}`,
  display_name: `New ${n}`,
});
const account = {
  service_type: 'github',
  service_label: 'GitHub',
  service_icon: 'https://icons.example.com/gh.svg',
  url: 'https://github.com/x',
};
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
      avatarFile: null,
      profile: {
        slug: 'new-1',
        displayName: 'New 1',
        avatarAltText: '',
        location: '',
        description: '',
        jobTitle: '',
        company: '',
        pronunciation: '',
        pronouns: '',
        firstName: '',
        lastName: '',
        timezone: '',
        languages: [],
        interests: [],
        inferredInterests: [],
        isOrganization: false,
        headerImage: '',
        backgroundColor: '',
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
          gallery: [
            { url: 'https://img.example.com/1.jpg', alt_text: 'One' },
            { url: 'https://img.example.com/2.jpg' },
          ],
          verified_accounts: [account, { ...account, is_hidden: true }],
          contact_info: { calendar: { value: 'https://cal.example.com', public: true } },
        },
      ],
      IMPORTED_AT,
    );
    expect(owned!.profile.gallery).toEqual([
      { url: 'https://img.example.com/1.jpg', altText: 'One' },
      { url: 'https://img.example.com/2.jpg' },
    ]);
    expect(owned!.profile.verifiedAccounts.map((a) => a.hidden)).toEqual([false, true]);
    expect(owned!.profile.contactInfo).toEqual({ calendar: { value: 'https://cal.example.com', public: true } });
  });
});

describe('an invalid record rejects the whole batch, naming the record (1-based) and field', () => {
  it.each([
    [
      'a bad URL deep in a record',
      { ...fresh(2), payments: { public: true, links: [{ label: 'x', url: 'nope' }] } },
      'record 2, field payments.links[0].url: must match format "uri"',
    ],
    ['a missing required field', { email: 'x@example.com', slug: 'x' }, 'record 2, field display_name: is required'],
    [
      'an empty display name',
      { ...fresh(2), display_name: '' },
      'record 2, field display_name: must NOT have fewer than 1 characters',
    ],
    [
      'an unknown field',
      { ...fresh(2), nickname: 'Al' },
      'record 2, field nickname: is not a field of the import format',
    ],
    [
      'a contact detail without its public flag',
      { ...fresh(2), contact_info: { email: { value: 'a@b.example' } } },
      'record 2, field contact_info.email.public: is required',
    ],
    [
      'an unknown contact detail',
      { ...fresh(2), contact_info: { fax: { value: '1', public: true } } },
      'record 2, field contact_info.fax: is not a field of the import format',
    ],
    [
      'payments without their public flag',
      { ...fresh(2), payments: { links: [] } },
      'record 2, field payments.public: is required',
    ],
    ['a bad email', { ...fresh(2), email: 'not-an-email' }, 'record 2, field email: must match format "email"'],
    [
      'an avatar URL (avatars are served here, from avatar_file)',
      { ...fresh(2), avatar_url: 'https://example.com/a.png' },
      "record 2, field avatar_url: is not imported: avatar URLs always point at this deployment's avatar images; give the image file as avatar_file",
    ],
    [
      'an empty avatar file name',
      { ...fresh(2), avatar_file: '' },
      'record 2, field avatar_file: must NOT have fewer than 1 characters',
    ],
    [
      'an unknown time zone',
      { ...fresh(2), timezone: 'Mars/Olympus_Mons' },
      'record 2, field timezone: must be an IANA time zone name such as Europe/Bratislava',
    ],
    [
      'a language code that is no code',
      { ...fresh(2), languages: [{ code: 'english!', name: 'English' }] },
      'record 2, field languages[0].code: must be a language code such as en or pt-BR',
    ],
    [
      'a language listed twice',
      {
        ...fresh(2),
        languages: [
          { code: 'en', name: 'English' },
          { code: 'EN', name: 'English' },
        ],
      },
      'record 2, field languages[1].code: repeats languages[0]',
    ],
    [
      'two primary languages',
      {
        ...fresh(2),
        languages: [
          { code: 'en', name: 'English', is_primary: true },
          { code: 'fr', name: 'French', is_primary: true },
        ],
      },
      'record 2, field languages[1].is_primary: only one language may be primary',
    ],
    [
      'a language without a name',
      { ...fresh(2), languages: [{ code: 'en' }] },
      'record 2, field languages[0].name: is required',
    ],
    [
      'an interest id that is not a positive integer',
      { ...fresh(2), interests: [{ id: 0, name: 'x' }] },
      'record 2, field interests[0].id: must be >= 1',
    ],
    [
      'an interest listed twice',
      {
        ...fresh(2),
        interests: [
          { id: 3, name: 'a' },
          { id: 3, name: 'b' },
        ],
      },
      'record 2, field interests[1].id: repeats interests[0]',
    ],
    [
      'an inferred interest listed twice',
      {
        ...fresh(2),
        inferred_interests: [
          { id: 3, name: 'a' },
          { id: 3, name: 'b' },
        ],
      },
      'record 2, field inferred_interests[1].id: repeats inferred_interests[0]',
    ],
    [
      'an inferred interest without a name',
      { ...fresh(2), inferred_interests: [{ id: 3 }] },
      'record 2, field inferred_interests[0].name: is required',
    ],
    [
      'an organization flag that is not a boolean',
      { ...fresh(2), is_organization: 'yes' },
      'record 2, field is_organization: must be boolean',
    ],
    [
      'a header image that is not one url(…)',
      { ...fresh(2), header_image: "url('https://x.example/a.png'); color: red" },
      'record 2, field header_image: must be a CSS background of one image',
    ],
    [
      'a header image with a script URL',
      { ...fresh(2), header_image: "url('javascript:alert(1)')" },
      'record 2, field header_image: must be a CSS background of one image',
    ],
    [
      'a background that could load something',
      { ...fresh(2), background_color: "url('https://x.example/a.png')" },
      'record 2, field background_color: must be a CSS colour',
    ],
    [
      'a background with a CSS declaration in it',
      { ...fresh(2), background_color: 'red; position: fixed' },
      'record 2, field background_color: must be a CSS colour',
    ],
    [
      'an impossible registration date',
      { ...fresh(2), registration_date: '2026-02-30' },
      'record 2, field registration_date: must match format "date"',
    ],
    [
      'a last edit without a time zone',
      { ...fresh(2), last_profile_edit: '2026-01-02T03:04:05' },
      'record 2, field last_profile_edit: must match format "date-time"',
    ],
    [
      'a slug shaped like an email hash',
      { ...fresh(2), slug: emailHashes('z@example.com').md5 },
      'record 2, field slug: must not look like an email hash',
    ],
    ['a slug with capitals or spaces', { ...fresh(2), slug: 'Not Ok' }, 'record 2, field slug: must match pattern'],
    ['a slug used twice', { ...fresh(2), slug: 'new-1' }, 'record 2, field slug: repeats record 1'],
    [
      'an email used twice (in another letter case)',
      { ...fresh(2), email: 'NEW1@Example.com' },
      'record 2, field email: repeats record 1',
    ],
    ['a record that is not an object', 'alex', 'record 2, field (record): must be object'],
  ])('%s', (_what, second, message) => {
    const text = rejection([fresh(1), second, fresh(3)]);
    expect(text).toContain(message);
    expect(text).toMatch(/; nothing was imported$/);
  });

  it('reports the first invalid record when several are', () => {
    expect(rejection([fresh(1), fresh(2), { ...fresh(3), slug: '' }, { ...fresh(4), email: '' }])).toMatch(
      /^record 3, field slug/,
    );
  });
});

describe('the personal details of the real service', () => {
  it("are read, in the owner's order, with their empty values when absent", () => {
    const [owned] = validateProfileRecords(
      [
        {
          ...fresh(1),
          first_name: 'Robin',
          last_name: 'Reyes',
          timezone: 'Europe/Bratislava',
          languages: [
            { code: 'sk', name: 'Slovak' },
            { code: 'en', name: 'English', is_primary: true },
          ],
          interests: [{ id: 12, name: 'maps' }],
          inferred_interests: [{ id: 13, name: 'Old atlases' }],
          is_organization: true,
          header_image: "url('https://images.example.com/h.jpg') no-repeat 50% 1% / 100%",
          background_color: 'rgb(33, 0, 166)',
        },
      ],
      IMPORTED_AT,
    );
    expect(owned!.profile).toMatchObject({
      firstName: 'Robin',
      lastName: 'Reyes',
      timezone: 'Europe/Bratislava',
      languages: [
        { code: 'sk', name: 'Slovak', isPrimary: false },
        { code: 'en', name: 'English', isPrimary: true },
      ],
      interests: [{ id: 12, name: 'maps' }],
      inferredInterests: [{ id: 13, name: 'Old atlases' }],
      isOrganization: true,
      headerImage: "url('https://images.example.com/h.jpg') no-repeat 50% 1% / 100%",
      backgroundColor: 'rgb(33, 0, 166)',
    });
  });

  it.each([
    '#fff',
    '#2874fcff',
    'rebeccapurple',
    'hsl(120, 50%, 40%)',
    'rgba(0, 0, 0, 0.5)',
    'linear-gradient(135deg, rgb(2, 3, 129) 0%, rgb(40, 116, 252) 100%)',
  ])('take the background colour %s', (color) => {
    expect(
      validateProfileRecords([{ ...fresh(1), background_color: color }], IMPORTED_AT)[0]!.profile.backgroundColor,
    ).toBe(color);
  });
});

/** A small valid PNG, drawn here. */
const png = (size = 8) =>
  sharp({ create: { width: size, height: size, channels: 3, background: '#2874fc' } })
    .png()
    .toBuffer();
const files =
  (byName: Record<string, Buffer>): AvatarFileReader =>
  async (file) => {
    const bytes = byName[file];
    if (!bytes) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    return bytes;
  };
const importRejection = async (text: string, reader: AvatarFileReader) => {
  try {
    await readProfileImport(text, IMPORTED_AT, reader);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
};

describe('an avatar file', () => {
  it('is read by its name in the record and kept as given, with its SHA-256', async () => {
    const image = await png();
    const [withImage, without] = await readProfileImport(
      JSON.stringify([{ ...fresh(1), avatar_file: 'img/one.png' }, fresh(2)]),
      IMPORTED_AT,
      files({ 'img/one.png': image }),
    );
    expect(withImage!.avatar).toEqual({ bytes: image, digest: createHash('sha256').update(image).digest('hex') });
    expect(without!.avatar).toBeNull();
  });

  it.each([
    ['a file that cannot be read', 'gone.png', {}, 'record 2, field avatar_file: cannot read gone.png (ENOENT)'],
    [
      'an empty file',
      'empty.png',
      { 'empty.png': Buffer.alloc(0) },
      'record 2, field avatar_file: empty.png is an empty file',
    ],
    [
      'a file that is no image',
      'notes.png',
      { 'notes.png': Buffer.from('just some text, not an image') },
      'record 2, field avatar_file: notes.png is not an image (PNG, JPEG, WebP or GIF)',
    ],
    [
      'an image of another kind',
      'face.svg',
      { 'face.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>') },
      'record 2, field avatar_file: face.svg is a svg image; avatars must be PNG, JPEG, WebP or GIF',
    ],
  ])('is refused when it is %s, naming the record', async (_what, name, byName, message) => {
    const text = await importRejection(JSON.stringify([fresh(1), { ...fresh(2), avatar_file: name }]), files(byName));
    expect(text).toBe(`${message}; nothing was imported`);
  });

  it('is refused when it is truncated', async () => {
    const image = await png(64);
    const text = await importRejection(
      JSON.stringify([{ ...fresh(1), avatar_file: 'cut.png' }]),
      files({ 'cut.png': image.subarray(0, image.length - 20) }),
    );
    expect(text).toMatch(/^record 1, field avatar_file: cut.png cannot be decoded/);
  });

  it('is refused when it is larger than 4096 pixels a side', async () => {
    const wide = await sharp({ create: { width: 4097, height: 1, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const text = await importRejection(
      JSON.stringify([{ ...fresh(1), avatar_file: 'wide.png' }]),
      files({ 'wide.png': wide }),
    );
    expect(text).toBe(
      'record 1, field avatar_file: wide.png is 4097x1 pixels; at most 4096 a side; nothing was imported',
    );
  });

  it('is refused when it is larger than 5 MB', async () => {
    const text = await importRejection(
      JSON.stringify([{ ...fresh(1), avatar_file: 'big.png' }]),
      files({ 'big.png': Buffer.alloc(AVATAR_UPLOAD_LIMITS.bytes + 1) }),
    );
    expect(text).toBe('record 1, field avatar_file: big.png is larger than 5 MB; nothing was imported');
  });
});

describe('an import file', () => {
  it('must be JSON', async () => {
    await expect(readProfileImport('{ nope', IMPORTED_AT, files({}))).rejects.toThrow(/the file is not JSON/);
  });

  it('must hold an array of records', async () => {
    await expect(readProfileImport('{"profiles": []}', IMPORTED_AT, files({}))).rejects.toThrow(
      /a JSON array of profile records/,
    );
  });
});
