import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { AvatarImageRejected, acceptAvatarImage } from '../avatars/avatarUpload.js';
import { looksLikeEmailHash } from '../domain/identifier.js';
import { normalizeEmail } from '../../../accounts/email.js';
import type { AvatarImage, OwnedProfile, ProfileContent } from '../domain/profilesStore.js';
import { detailProblem, profileRecordSchema, type ProfileRecord } from './profileRecord.js';
import { toProfileContent } from './toProfileContent.js';

/** An import file that cannot be imported; names the record (1-based) and field when one is at fault. */
export class ImportRejected extends Error {
  constructor(message: string) {
    super(`${message}; nothing was imported`);
    this.name = 'ImportRejected';
  }
}

/** Names the offending record and field, e.g. `record 2, field verified_accounts[0].url`. */
export const recordProblem = (index: number, field: string, problem: string) =>
  new ImportRejected(`record ${index + 1}, field ${field}: ${problem}`);

/** A validated record: the profile it describes and the avatar file it names (not read yet). */
export interface ValidatedRecord {
  email: string;
  profile: ProfileContent;
  /** `avatar_file` as written, or null when the record gives none. */
  avatarFile: string | null;
}

/** Reads an avatar file an import record names (a path relative to the import file). */
export type AvatarFileReader = (file: string) => Promise<Buffer>;

let compiled: ValidateFunction<ProfileRecord> | undefined;
/** The record validator, compiled on the first import (not when the server, which imports none, starts). */
function recordValidator(): ValidateFunction<ProfileRecord> {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: true, allErrors: false });
  (addFormats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  return (compiled = ajv.compile<ProfileRecord>(profileRecordSchema));
}

/**
 * Reads an import file's text: a JSON array of profile records, each
 * validated (see `validateProfileRecords`), then the avatar images they name
 * (see `loadAvatarFiles`). Any problem rejects the whole file.
 */
export async function readProfileImport(
  text: string,
  importedAt: Date,
  readAvatarFile: AvatarFileReader,
): Promise<OwnedProfile[]> {
  let records: unknown;
  try {
    records = JSON.parse(text);
  } catch (error) {
    throw new ImportRejected(`the file is not JSON (${(error as Error).message})`);
  }
  return loadAvatarFiles(validateProfileRecords(records, importedAt), readAvatarFile);
}

/**
 * Validates every record before anything is read or written: the first
 * invalid one rejects the whole batch, naming the record and field. Emails
 * and slugs must be unique within the batch. `typed`: the records are the
 * project's own, typed `ProfileRecord[]` in its source (the demo profiles;
 * a test runs them through the schema): the JSON Schema check, whose
 * compilation would slow a new store's start-up, is left out; every other
 * check still runs.
 */
export function validateProfileRecords(records: unknown, importedAt: Date, { typed = false } = {}): ValidatedRecord[] {
  if (!Array.isArray(records)) throw new ImportRejected('the file must hold a JSON array of profile records');

  const emails = new Map<string, number>();
  const slugs = new Map<string, number>();
  return records.map((given: unknown, index) => {
    const record = typed ? (given as ProfileRecord) : schemaChecked(given, index);
    const detail = detailProblem(record);
    if (detail) throw recordProblem(index, ...detail);
    if (looksLikeEmailHash(record.slug)) throw recordProblem(index, 'slug', 'must not look like an email hash');
    const email = normalizeEmail(record.email);
    const sameEmail = emails.get(email);
    if (sameEmail !== undefined) throw recordProblem(index, 'email', `repeats record ${sameEmail + 1}`);
    const sameSlug = slugs.get(record.slug);
    if (sameSlug !== undefined) throw recordProblem(index, 'slug', `repeats record ${sameSlug + 1}`);
    emails.set(email, index);
    slugs.set(record.slug, index);
    return {
      email: record.email,
      profile: toProfileContent(record, importedAt),
      avatarFile: record.avatar_file ?? null,
    };
  });
}

/** A record that passes the import schema, or the problem naming it. */
function schemaChecked(record: unknown, index: number): ProfileRecord {
  const validateRecord = recordValidator();
  if (validateRecord(record)) return record;
  const [field, problem] = describe(validateRecord.errors?.[0]);
  throw recordProblem(index, field, problem);
}

/**
 * Reads and checks the avatar image each validated record names (see
 * `acceptAvatarImage`): a file that cannot be read, or is no acceptable
 * image, rejects the whole batch, naming the record.
 */
export async function loadAvatarFiles(
  records: readonly ValidatedRecord[],
  readAvatarFile: AvatarFileReader,
): Promise<OwnedProfile[]> {
  const owned: OwnedProfile[] = [];
  for (const [index, { email, profile, avatarFile }] of records.entries()) {
    let avatar: AvatarImage | null = null;
    if (avatarFile !== null) {
      let bytes: Buffer;
      try {
        bytes = await readAvatarFile(avatarFile);
      } catch (error) {
        throw recordProblem(
          index,
          'avatar_file',
          `cannot read ${avatarFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        );
      }
      try {
        avatar = await acceptAvatarImage(bytes);
      } catch (error) {
        if (error instanceof AvatarImageRejected)
          throw recordProblem(index, 'avatar_file', `${avatarFile} ${error.message}`);
        throw error;
      }
    }
    owned.push({ email, profile, avatar });
  }
  return owned;
}

/** The field (as `payments.links[0].url`) and problem an Ajv error describes. */
function describe(error: ErrorObject | undefined): [string, string] {
  if (!error) return ['(record)', 'is invalid'];
  const segments = error.instancePath.split('/').slice(1);
  let problem = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    segments.push(String(error.params.missingProperty));
    problem = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    const field = String(error.params.additionalProperty);
    segments.push(field);
    problem =
      field === 'avatar_url' && segments.length === 1
        ? "is not imported: avatar URLs always point at this deployment's avatar images; give the image file as avatar_file"
        : 'is not a field of the import format';
  }
  const field = segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment),
    '',
  );
  return [field || '(record)', problem];
}
