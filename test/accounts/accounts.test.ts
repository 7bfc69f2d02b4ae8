import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountEmailVerified,
  accountStanding,
  createAccount,
  ensureAccount,
  findAccountId,
  isAccountEmailVerified,
  markAccountEmailVerified,
} from '../../src/accounts/accounts.js';
import { emailHashes } from '../../src/accounts/email.js';
import type { AccountsTables } from '../../src/accounts/tables.js';
import { accountsStore } from './support.js';

let store: Awaited<ReturnType<typeof accountsStore>>;
let db: Kysely<AccountsTables>;
beforeAll(async () => {
  store = await accountsStore();
  db = store.db;
});
afterAll(() => store.close());

const now = '2026-11-30T12:00:00.000Z';

describe('accounts', () => {
  it('are created once per primary email, normalized, with the hashes profiles are found by', async () => {
    const id = await createAccount(db, '  Ada@Example.COM ', now);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const row = await db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', id as string)
      .executeTakeFirstOrThrow();
    const { sha256, md5 } = emailHashes('ada@example.com');
    expect(row).toEqual({
      id,
      email: 'ada@example.com',
      email_sha256: sha256,
      email_md5: md5,
      created_at: now,
      email_verified_at: null,
    });
    // The same address in another spelling is the same account.
    expect(await createAccount(db, 'ADA@example.com', now)).toBe('email-taken');
  });

  it('keep when they registered and whether their address is verified, the first verification kept unless replaced', async () => {
    const id = (await createAccount(db, 'lin@example.com', now)) as string;
    expect(await accountStanding(db, id)).toEqual({ registeredAt: now, emailVerified: false });
    await markAccountEmailVerified(db, id, '2026-12-01T08:00:00.000Z');
    await markAccountEmailVerified(db, id, '2026-12-02T08:00:00.000Z');
    const verifiedAt = async () =>
      (await db.selectFrom('accounts').select('email_verified_at').where('id', '=', id).executeTakeFirstOrThrow())
        .email_verified_at;
    expect(await verifiedAt()).toBe('2026-12-01T08:00:00.000Z');
    await markAccountEmailVerified(db, id, '2026-12-03T08:00:00.000Z', { replace: true });
    expect(await verifiedAt()).toBe('2026-12-03T08:00:00.000Z');
    expect(await accountStanding(db, id)).toEqual({ registeredAt: now, emailVerified: true });
    expect(await accountStanding(db, 'no-such-account')).toBeUndefined();
  });

  it('answer whether their address is verified to a service, alone or as a column of its own query over them, as a boolean on either store', async () => {
    const [unverified, verified] = [
      (await createAccount(db, 'una@example.com', now)) as string,
      (await createAccount(db, 'vera@example.com', now)) as string,
    ];
    await markAccountEmailVerified(db, verified, now);
    expect(await isAccountEmailVerified(db, unverified)).toBe(false);
    expect(await isAccountEmailVerified(db, verified)).toBe(true);
    expect(await isAccountEmailVerified(db, 'no-such-account')).toBe(false);
    const rows = await db
      .selectFrom('accounts')
      .select(['id', accountEmailVerified.as('verified')])
      .where('id', 'in', [unverified, verified])
      .execute();
    expect(Object.fromEntries(rows.map((row) => [row.id, Boolean(row.verified)]))).toEqual({
      [unverified]: false,
      [verified]: true,
    });
  });

  it('are looked up by their email in any spelling; an unknown one is undefined', async () => {
    const id = await createAccount(db, 'grace@example.com', now);
    expect(await findAccountId(db, ' Grace@Example.com')).toBe(id);
    expect(await findAccountId(db, 'nobody@example.com')).toBeUndefined();
  });

  it('are reused or created by ensureAccount, which says which', async () => {
    const existing = await findAccountId(db, 'grace@example.com');
    expect(await ensureAccount(db, 'GRACE@example.com', now)).toEqual({ id: existing, created: false });
    const made = await ensureAccount(db, 'linus@example.com', now);
    expect(made.created).toBe(true);
    expect(await findAccountId(db, 'linus@example.com')).toBe(made.id);
  });

  it('cannot share an address even when two writers race past the check: the unique constraint decides', async () => {
    const insert = () =>
      db
        .insertInto('accounts')
        .values({
          id: crypto.randomUUID(),
          email: 'race@example.com',
          email_sha256: 'a',
          email_md5: 'b',
          created_at: now,
        })
        .execute();
    await insert();
    await expect(insert()).rejects.toThrow();
  });
});
