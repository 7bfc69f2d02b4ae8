// @store-independent
import { describe, expect, it } from 'vitest';
import {
  accountDecisionsOutside,
  accountsOutside,
  accountsTables,
  accountsTablesWrittenOutside,
  contextsForged,
  handlersAsserting,
  databaseRetyped,
  filesTooLong,
  MAX_LINES,
  domainStoreArrows,
  errorsMadeInPlace,
  foldersOfNoLayer,
  layerBreaks,
  layerOf,
  packageInternals,
  platformOutside,
  platformStoreOfOne,
  platformStoreUsers,
  rawDatabaseAboveTheStore,
  serviceOutside,
  servicesOf,
  STORE_MAY_USE,
  writesOf,
} from './imports/rules.js';
import { importsOf, localImports, projectTree, reached, withFiles } from './imports/tree.js';

/**
 * The layering of docs/architecture.md, read from the imports (`imports/rules.ts`): each rule holds on the
 * checkout, and says so when a file laid over the checkout breaks it on purpose (the last block), so no rule
 * passes because it cannot see.
 */
const tree = projectTree;
const services = servicesOf(tree);

describe('the scan', () => {
  it('reads files, their imports with their kinds, and what they reach at any depth', () => {
    expect(tree.files('src/platform')).toContain('src/platform/pipeline/pipeline.ts');
    expect(localImports(tree, 'src/platform/pipeline/pipeline.ts').map((i) => i.target)).toContain(
      'src/platform/pipeline/router.js',
    );
    expect(importsOf(tree, 'src/services/profiles/store/kysely/profileRow.ts')).toContainEqual({
      specifier: '../../domain/profile.js',
      target: 'src/services/profiles/domain/profile.js',
      typeOnly: true,
    });
    expect(importsOf(tree, 'src/services/developer/handlers.ts')).toContainEqual(
      expect.objectContaining({ target: 'src/services/developer/flows/sessions.js', typeOnly: false }),
    );
    expect([...reached(tree, 'src/app.ts').keys()]).toContain('src/platform/pipeline/router.ts');
    expect(services).toEqual(expect.arrayContaining(['developer', 'profiles', 'publishing']));
    expect(layerOf('publishing', 'src/services/publishing/flows/read.ts')).toEqual({ rank: 1, name: 'flows' });
    expect(layerOf('profiles', 'src/services/profiles/meHandlers.ts')).toEqual({ rank: 3, name: 'handlers' });
    expect(layerOf('profiles', 'src/services/profiles/settings.ts')).toBeUndefined();
    expect(accountsTables(tree)).toEqual(
      expect.arrayContaining(['accounts', 'api_applications', 'api_keys', 'oauth_records']),
    );
    expect(writesOf(tree, 'src/accounts/accounts.ts', accountsTables(tree))).toContain(
      'src/accounts/accounts.ts writes accounts',
    );
    expect([...(platformStoreUsers(tree).get('src/platform/store/database.ts') ?? [])]).toEqual(
      expect.arrayContaining(['app', 'platform']),
    );
  });
});

describe('the modules', () => {
  it('the platform reaches nothing outside itself: no service, no accounts, not the app', () => {
    expect(platformOutside(tree)).toEqual([]);
  });

  it('the accounts reach the platform only, never a service or the app', () => {
    expect(accountsOutside(tree)).toEqual([]);
  });

  it('a service reaches no other service and not the app', () => {
    expect(serviceOutside(tree)).toEqual([]);
  });

  it("the platform's store holds what the platform or the app uses, or two users below it", () => {
    expect(platformStoreOfOne(tree)).toEqual([]);
  });

  it("the accounts' tables are written only by src/accounts", () => {
    expect(accountsTablesWrittenOutside(tree)).toEqual([]);
  });

  it('whether an address is verified is named only by src/accounts and migrations', () => {
    expect(accountDecisionsOutside(tree)).toEqual([]);
  });

  it('no import names a file inside a package that the package does not offer', () => {
    expect(packageInternals(tree)).toEqual([]);
  });

  it('no store is typed Kysely<any> or cast to other tables outside migrations', () => {
    expect(databaseRetyped(tree)).toEqual([]);
  });

  it('no Koa context is made by a cast: what runs outside Koa takes the narrow type it uses', () => {
    expect(contextsForged(tree)).toEqual([]);
  });

  it('no handler asserts a type: the contract types what it takes, its flows what it answers', () => {
    expect(handlersAsserting(tree)).toEqual([]);
  });

  it(`no file of src/ but data is over ${MAX_LINES} lines`, () => {
    expect(filesTooLong(tree)).toEqual([]);
  });
});

describe("a service's layers", () => {
  it('every folder of a service is in a layer', () => {
    expect(foldersOfNoLayer(tree)).toEqual([]);
  });

  it.each(services)(
    '%s: nothing reaches back up a layer, flows/ and store/ do not reach each other, domain/ imports no generated/ type',
    (service) => {
      expect(layerBreaks(tree, service)).toEqual([]);
    },
  );

  it.each(services)('%s: handler maps, HTTP steps, flows and domain rules hold no raw Kysely', (service) => {
    expect(rawDatabaseAboveTheStore(tree, service)).toEqual([]);
  });

  it.each(services)(
    '%s: flows and domain rules throw the errors errors.ts names, never an ApiError made in place',
    (service) => {
      expect(errorsMadeInPlace(tree, service)).toEqual([]);
    },
  );

  it.each(services)('%s: domain/ imports nothing of store/, and store/ only the types of domain/', (service) => {
    expect(domainStoreArrows(tree, service)).toEqual([]);
  });

  it('a store uses values only of domain/ modules that import nothing but types', () => {
    const values = STORE_MAY_USE.flatMap((file) =>
      localImports(tree, file)
        .filter(({ typeOnly }) => !typeOnly)
        .map(({ specifier }) => `${file} imports ${specifier}`),
    );
    expect(values).toEqual([]);
  });
});

describe('each rule, broken on purpose', () => {
  const p = 'src/services/profiles';
  it('a platform file that reaches a service through another platform file', () => {
    const broken = withFiles(tree, {
      'src/platform/a.ts': "import { b } from './b.js';",
      'src/platform/b.ts': "import { handlers } from '../services/profiles/handlers.js';",
    });
    expect(platformOutside(broken)).toContain(
      'src/platform/a.ts → src/platform/b.ts → src/services/profiles/handlers.ts',
    );
  });

  it('the accounts reaching a service', () => {
    const broken = withFiles(tree, { 'src/accounts/x.ts': "import '../services/publishing/store/tables.js';" });
    expect(accountsOutside(broken)).toContain('src/accounts/x.ts → src/services/publishing/store/tables.ts');
  });

  it('a service reaching another through a file of its own, and one reaching the app', () => {
    const broken = withFiles(tree, {
      [`${p}/bridge.ts`]: "export * from '../publishing/errors.js';",
      [`${p}/flows/x.ts`]: "import '../bridge.js'; import type { Database } from '../../../app.js';",
    });
    expect(serviceOutside(broken)).toEqual(
      expect.arrayContaining([
        `${p}/flows/x.ts → ${p}/bridge.ts → src/services/publishing/errors.ts`,
        `${p}/flows/x.ts → src/app.ts`,
      ]),
    );
  });

  it("a module of the platform's store that one service alone uses", () => {
    const broken = withFiles(tree, {
      'src/platform/store/onlyProfiles.ts': 'export const x = 1;',
      [`${p}/store/x.ts`]: "import { x } from '../../../platform/store/onlyProfiles.js';",
    });
    expect(platformStoreOfOne(broken)).toContain(
      'src/platform/store/onlyProfiles.ts is used only by services/profiles',
    );
  });

  it("a service writing an accounts' table", () => {
    const broken = withFiles(tree, { [`${p}/store/x.ts`]: "db.updateTable('api_keys').set({})" });
    expect(accountsTablesWrittenOutside(broken)).toContain(`${p}/store/x.ts writes api_keys`);
  });

  it("a service naming the account's verification column", () => {
    const broken = withFiles(tree, {
      [`${p}/store/x.ts`]: "db.selectFrom('accounts').select('accounts.email_verified_at')",
    });
    expect(accountDecisionsOutside(broken)).toEqual([`${p}/store/x.ts names email_verified_at`]);
  });

  it("an import of a package's internal file", () => {
    const broken = withFiles(tree, {
      'src/platform/x.ts':
        "import r from 'rate-limiter-flexible/lib/RateLimiterRes.js'; import 'openapi-backend/backend.js';",
    });
    expect(packageInternals(broken)).toEqual([
      'src/platform/x.ts imports rate-limiter-flexible/lib/RateLimiterRes.js, a file inside the package',
      'src/platform/x.ts imports openapi-backend/backend.js, a file inside the package',
    ]);
  });

  it('a store typed Kysely<any>, and casts that retype one, outside migrations', () => {
    const broken = withFiles(tree, {
      [`${p}/store/x.ts`]: [
        "import type { Kysely, Transaction } from 'kysely';",
        'export const any = (db: Kysely<any>) => db;',
        'export const wide = (db: Kysely<{ a: {} }>) => db as unknown as Kysely<{ b: {} }>;',
        'export const narrow = (trx: Transaction<{ a: {} }>) => <Transaction<object>>trx;',
      ].join('\n'),
      [`${p}/store/migrations.ts`]: "import type { Kysely } from 'kysely';\nexport const up = (db: Kysely<any>) => db;",
    });
    expect(databaseRetyped(broken)).toEqual([
      `${p}/store/x.ts:2 names Kysely<any>`,
      `${p}/store/x.ts:3 casts to Kysely<{ b: {} }>`,
      `${p}/store/x.ts:4 casts to Transaction<object>`,
    ]);
  });

  it('a Koa context made by a cast, in src/ and in scripts/', () => {
    const broken = withFiles(tree, {
      [`${p}/http/x.ts`]: [
        "import type { Context } from 'koa';",
        'export const fake = (req: object, res: object) => ({ req, res }) as unknown as Context;',
      ].join('\n'),
      'scripts/mock/x.ts': "import type Koa from 'koa';\nexport const c = <Koa.ParameterizedContext>{};",
    });
    expect(contextsForged(broken)).toEqual([
      `${p}/http/x.ts:2 casts to Context`,
      'scripts/mock/x.ts:2 casts to Koa.ParameterizedContext',
    ]);
  });

  it("a type assertion in a service's handlers, not elsewhere, and not `as const`", () => {
    const broken = withFiles(tree, {
      'src/services/publishing/handlers.ts': [
        'type Q = { n: number };',
        'export const a = (query: object) => query as Q;',
        'export const b = (query: object) => <Q>query;',
        "export const c = { status: 200 as const, kind: 'x' as const };",
      ].join('\n'),
      [`${p}/meHandlers.ts`]: 'export const d = (x: unknown) => x as unknown as string;',
      [`${p}/http/presentX.ts`]: 'export const e = (x: unknown) => x as string;',
    });
    expect(handlersAsserting(broken)).toEqual([
      `${p}/meHandlers.ts:1 asserts string`,
      `${p}/meHandlers.ts:1 asserts unknown`,
      'src/services/publishing/handlers.ts:2 asserts Q',
      'src/services/publishing/handlers.ts:3 asserts Q',
    ]);
  });

  it(`a file of src/ over ${MAX_LINES} lines, unless it is data`, () => {
    const long = 'export const x = 1;\n'.repeat(MAX_LINES + 1);
    const broken = withFiles(tree, {
      [`${p}/flows/long.ts`]: long,
      [`${p}/flows/justSo.ts`]: 'export const x = 1;\n'.repeat(MAX_LINES),
      'src/services/publishing/store/migrations.ts': long,
    });
    expect(filesTooLong(broken)).toContain(`${p}/flows/long.ts has ${MAX_LINES + 1} lines`);
    expect(filesTooLong(broken).join()).not.toMatch(/justSo|migrations/);
  });

  it('a folder in no layer', () => {
    const broken = withFiles(tree, { [`${p}/helpers/x.ts`]: 'export const x = 1;' });
    expect(foldersOfNoLayer(broken)).toEqual([`${p}/helpers/ is in no layer`]);
  });

  it('a flow reaching the store through a file of no layer, a domain rule reaching http/, domain/ the contract', () => {
    const broken = withFiles(tree, {
      [`${p}/bridge.ts`]: "export * from './store/tables.js';",
      [`${p}/flows/x.ts`]: "import '../bridge.js';",
      [`${p}/domain/x.ts`]:
        "import '../http/presentAnswer.js'; import type { Profile } from '../../../../generated/profiles/types.gen.js';",
    });
    expect(layerBreaks(broken, 'profiles')).toEqual(
      expect.arrayContaining([
        `${p}/flows/x.ts → ${p}/bridge.ts → ${p}/store/tables.ts (flows → store)`,
        `${p}/domain/x.ts → ${p}/http/presentAnswer.ts (domain → http)`,
        `${p}/domain/x.ts imports the contract's types ../../../../generated/profiles/types.gen.js`,
      ]),
    );
  });

  it('a flow on a raw Kysely', () => {
    const broken = withFiles(tree, { [`${p}/flows/x.ts`]: "import type { Kysely } from 'kysely';" });
    expect(rawDatabaseAboveTheStore(broken, 'profiles')).toEqual([`${p}/flows/x.ts works on a raw Kysely`]);
  });

  it('an ApiError made in a flow, under another name or through a namespace, and not a class of the same name', () => {
    const broken = withFiles(tree, {
      [`${p}/flows/x.ts`]:
        "import { ApiError as Failure } from '../../../platform/answers/errors.js';\nthrow new Failure(400, 'x', 'y');",
      [`${p}/flows/y.ts`]:
        "import * as errors from '../../../platform/answers/errors.js';\nthrow new errors.ApiError(400, 'x', 'y');",
      [`${p}/flows/z.ts`]: 'class ApiError extends Error {}\nthrow new ApiError();',
    });
    expect(errorsMadeInPlace(broken, 'profiles')).toEqual([
      `${p}/flows/x.ts makes an ApiError`,
      `${p}/flows/y.ts makes an ApiError`,
    ]);
  });

  it('domain/ importing store/, and store/ a value of domain/', () => {
    const broken = withFiles(tree, {
      [`${p}/domain/x.ts`]: "import '../store/tables.js';",
      [`${p}/store/x.ts`]: "import { isSlug } from '../domain/identifier.js';",
    });
    expect(domainStoreArrows(broken, 'profiles')).toEqual(
      expect.arrayContaining([
        `${p}/domain/x.ts imports ../store/tables.js`,
        `${p}/store/x.ts imports a value of ../domain/identifier.js`,
      ]),
    );
  });
});
