import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { looksLikeEmailHash } from '../domain/identifier.js';
import { normalizeEmail } from '../domain/emailHash.js';
import type { OwnedProfile } from '../store/profilesStore.js';
import { profileRecordSchema, type ProfileRecord } from './profileRecord.js';
import { toOwnedProfile } from './toOwnedProfile.js';

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

const ajv = new Ajv2020({ strict: true, allErrors: false });
(addFormats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
const validateRecord = ajv.compile<ProfileRecord>(profileRecordSchema);

/** Reads an import file's text: a JSON array of profile records (see `validateProfileRecords`). */
export function readProfileImport(text: string, importedAt: Date): OwnedProfile[] {
  let records: unknown;
  try {
    records = JSON.parse(text);
  } catch (error) {
    throw new ImportRejected(`the file is not JSON (${(error as Error).message})`);
  }
  return validateProfileRecords(records, importedAt);
}

/**
 * Validates every record before anything is written: the first invalid one
 * rejects the whole batch, naming the record and field. Emails and slugs
 * must be unique within the batch.
 */
export function validateProfileRecords(records: unknown, importedAt: Date): OwnedProfile[] {
  if (!Array.isArray(records)) throw new ImportRejected('the file must hold a JSON array of profile records');

  const emails = new Map<string, number>();
  const slugs = new Map<string, number>();
  return records.map((record: unknown, index) => {
    if (!validateRecord(record)) {
      const [field, problem] = describe(validateRecord.errors?.[0]);
      throw recordProblem(index, field, problem);
    }
    if (looksLikeEmailHash(record.slug)) throw recordProblem(index, 'slug', 'must not look like an email hash');
    const email = normalizeEmail(record.email);
    const sameEmail = emails.get(email);
    if (sameEmail !== undefined) throw recordProblem(index, 'email', `repeats record ${sameEmail + 1}`);
    const sameSlug = slugs.get(record.slug);
    if (sameSlug !== undefined) throw recordProblem(index, 'slug', `repeats record ${sameSlug + 1}`);
    emails.set(email, index);
    slugs.set(record.slug, index);
    return toOwnedProfile(record, importedAt);
  });
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
    segments.push(String(error.params.additionalProperty));
    problem = 'is not a field of the import format';
  }
  const field = segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
  return [field || '(record)', problem];
}
