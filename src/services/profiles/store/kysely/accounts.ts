import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../../platform/store/database.js';
import { emailHashes, normalizeEmail } from '../../domain/emailHash.js';

/** The account with this primary email, created when there is none (call inside a transaction). */
export async function ensureAccount(db: Kysely<Database>, email: string, now: string): Promise<{ id: string; created: boolean }> {
  const normalized = normalizeEmail(email);
  const existing = await db.selectFrom('accounts').select('id').where('email', '=', normalized).executeTakeFirst();
  if (existing) return { id: existing.id, created: false };
  const { sha256, md5 } = emailHashes(normalized);
  const id = randomUUID();
  await db
    .insertInto('accounts')
    .values({ id, email: normalized, email_sha256: sha256, email_md5: md5, created_at: now })
    .execute();
  return { id, created: true };
}
