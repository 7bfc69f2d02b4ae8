// @store-independent
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** Every TypeScript file under a folder of the project. */
function typeScriptFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** The project files a file imports (relative specifiers, resolved), with the specifier as written. */
function localImports(file: string): { specifier: string; target: string }[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((match) => match[1]!)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ specifier, target: relative(root, resolve(root, dirname(file), specifier)) }));
}

describe('the platform', () => {
  const files = typeScriptFiles('src/platform');

  it('is found (the scan reads its files and their imports)', () => {
    expect(files).toContain('src/platform/pipeline/pipeline.ts');
    expect(localImports('src/platform/pipeline/pipeline.ts').map((i) => i.target)).toContain(
      'src/platform/pipeline/router.js',
    );
  });

  it('imports nothing outside itself: no service, no accounts, not the app', () => {
    const outside = files.flatMap((file) =>
      localImports(file)
        .filter(({ target }) => !target.startsWith('src/platform/'))
        .map(({ specifier }) => `${file} imports ${specifier}`),
    );
    expect(outside).toEqual([]);
  });
});

/** Who a file of src/ is, as a user of the platform: the platform, the app (`src/*.ts`, `src/admin/`), the accounts, or one service. */
function userOf(file: string): string {
  const [, top, name] = file.split('/');
  if (top === 'services') return `services/${name}`;
  if (top === 'platform' || top === 'accounts') return top;
  return 'app';
}

/** The users of each module of `src/platform/store/`: who imports it, over src/ (the module itself left out). */
function platformStoreUsers(): Map<string, Set<string>> {
  const modules = typeScriptFiles('src/platform/store').map((file) => file.replace(/\.ts$/, '.js'));
  const users = new Map(modules.map((module) => [module, new Set<string>()]));
  for (const file of typeScriptFiles('src')) {
    for (const { target } of localImports(file)) {
      if (target !== file.replace(/\.ts$/, '.js')) users.get(target)?.add(userOf(file));
    }
  }
  return users;
}

describe("the platform's store", () => {
  const users = platformStoreUsers();

  it('is read with its users (the connection, imported by the app and the platform)', () => {
    expect([...(users.get('src/platform/store/database.js') ?? [])]).toEqual(
      expect.arrayContaining(['app', 'platform']),
    );
  });

  it('holds what the platform or the app uses, or two users below it; a module of one service lives in that service', () => {
    const single = [...users]
      .filter(([, who]) => !who.has('platform') && !who.has('app') && who.size < 2)
      .map(([module, who]) => `${module} is used only by ${[...who].join(', ') || 'nothing'}`);
    expect(single).toEqual([]);
  });
});

describe('the accounts', () => {
  it('import the platform, never a service or the app', () => {
    const outside = typeScriptFiles('src/accounts').flatMap((file) =>
      localImports(file)
        .filter(({ target }) => !target.startsWith('src/accounts/') && !target.startsWith('src/platform/'))
        .map(({ specifier }) => `${file} imports ${specifier}`),
    );
    expect(outside).toEqual([]);
  });
});

describe('a service', () => {
  it('imports no other service', () => {
    const across = typeScriptFiles('src/services').flatMap((file) => {
      const own = file.split('/').slice(0, 3).join('/');
      return localImports(file)
        .filter(({ target }) => target.startsWith('src/services/') && !target.startsWith(`${own}/`))
        .map(({ specifier }) => `${file} imports ${specifier}`);
    });
    expect(across).toEqual([]);
  });
});

/** The tables of the accounts: every table a migration of src/accounts creates. */
function accountsTables(): string[] {
  const created = typeScriptFiles('src/accounts').flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/\.createTable\(\s*['"]([a-z_]+)['"]/g)].map(
      (match) => match[1]!,
    ),
  );
  return [...new Set(created)].sort();
}

/**
 * Where a file writes a table, as the code says it: Kysely's `insertInto`, `replaceInto`, `updateTable`,
 * `deleteFrom` and `mergeInto` with the table's name, and SQL text (`INSERT INTO`, `UPDATE`, `DELETE FROM`).
 */
function writesOf(file: string, tables: readonly string[]): string[] {
  const names = tables.join('|');
  const written = new RegExp(
    `\\.(?:insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\\(\\s*['"](${names})['"]|\\b(?:INSERT\\s+(?:OR\\s+\\w+\\s+)?INTO|UPDATE|DELETE\\s+FROM)\\s+"?(${names})\\b`,
    'g',
  );
  return [...readFileSync(join(root, file), 'utf8').matchAll(written)].map(
    (match) => `${file} writes ${match[1] ?? match[2]}`,
  );
}

describe("the accounts' tables", () => {
  const tables = accountsTables();

  it('are found (the scan reads the tables the accounts create, and a write of one)', () => {
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'api_applications', 'api_keys', 'oauth_records']));
    expect(writesOf('src/accounts/accounts.ts', tables)).toContain('src/accounts/accounts.ts writes accounts');
  });

  it('are written only by src/accounts (a service reads them, and calls its functions to change them)', () => {
    const outside = [...typeScriptFiles('src'), ...typeScriptFiles('scripts')]
      .filter((file) => !file.startsWith('src/accounts/'))
      .flatMap((file) => writesOf(file, tables));
    expect(outside).toEqual([]);
  });
});

/** A relative import of a file, resolved, and whether it brings types only (`import type`, every name `type`, `import('…').T`). */
interface ProjectImport {
  specifier: string;
  target: string;
  typeOnly: boolean;
}

/** Every relative import of a file, read with the compiler's own parser (static, re-exports, dynamic `import()`). */
function projectImports(file: string): ProjectImport[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const everyNameTyped =
        !clause?.name &&
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.every((name) => name.isTypeOnly);
      found.push({
        specifier: node.moduleSpecifier.text,
        typeOnly: clause !== undefined && (clause.isTypeOnly || everyNameTyped),
      });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found
    .filter(({ specifier }) => specifier.startsWith('.'))
    .map(({ specifier, typeOnly }) => ({
      specifier,
      typeOnly,
      target: relative(root, resolve(root, dirname(file), specifier)),
    }));
}

/**
 * The services not yet built to the shape (docs/architecture.md, "A service's shape"), each with what is
 * left of it. Every other folder of src/services/, a new one included, is held to the rule.
 */
const NOT_YET_SHAPED: Readonly<Record<string, string>> = {};

/**
 * Modules of a `domain/` whose values a store may use, not only their types: each imports nothing but types
 * (no flow, nothing that reaches a store). Profiles' store interface declares the error its `saveProfiles`
 * throws (`SlugInUseError`); its search index keeps each verified account's username as `accountUsername`
 * makes it, and its back-fill migration makes it again for accounts stored before. Publishing's demo data
 * starts its posts with the columns a new post starts with (`NEW_POST_DEFAULTS`), and its trash keeps times
 * as every stored time is kept (`storedTime`).
 */
const STORE_MAY_USE = [
  'src/services/profiles/domain/profilesStore.ts',
  'src/services/profiles/domain/accountUsername.ts',
  'src/services/publishing/domain/postColumns.ts',
  'src/services/publishing/domain/dates.ts',
];

/** What breaks the rule in one service: `domain/` importing `store/`, and `store/` importing a value of `domain/`. */
function domainStoreArrows(service: string): string[] {
  const base = `src/services/${service}`;
  const inside = (target: string, folder: string) => target.startsWith(`${base}/${folder}/`);
  const fromDomain = typeScriptFiles(`${base}/domain`).flatMap((file) =>
    projectImports(file)
      .filter(({ target }) => inside(target, 'store'))
      .map(({ specifier }) => `${file} imports ${specifier}`),
  );
  const fromStore = typeScriptFiles(`${base}/store`).flatMap((file) =>
    projectImports(file)
      .filter(
        ({ target, typeOnly }) =>
          inside(target, 'domain') && !typeOnly && !STORE_MAY_USE.includes(target.replace(/\.js$/, '.ts')),
      )
      .map(({ specifier }) => `${file} imports a value of ${specifier}`),
  );
  return [...fromDomain, ...fromStore];
}

/**
 * The layers of a service, lowest first (docs/architecture.md, "A service's shape"): `domain/` (records, rules,
 * the store's interface), then `flows/` and `store/` side by side, then `http/`, the handler maps
 * (`handlers.ts`, `*Handlers.ts`), and `module.ts`. A file imports its own layer and those below, never one
 * above, and `flows/` and `store/` never each other. Files of no layer (settings, errors, deps, operations,
 * demo data, …) are not ranked.
 */
function layerOf(service: string, file: string): { rank: number; name: string } | undefined {
  const inService = file.slice(`src/services/${service}/`.length);
  const folder = inService.split('/')[0]!;
  if (folder === 'domain') return { rank: 0, name: 'domain' };
  if (folder === 'flows' || folder === 'store') return { rank: 1, name: folder };
  if (folder === 'http') return { rank: 2, name: 'http' };
  if (/^[a-zA-Z]*[hH]andlers\.(?:ts|js)$/.test(inService)) return { rank: 3, name: 'handlers' };
  if (/^module\.(?:ts|js)$/.test(inService)) return { rank: 4, name: 'module' };
  return undefined;
}

/** What runs back up a layer in one service, or from `flows/` to `store/` and back, or from `domain/` to the contract. */
function layerBreaks(service: string): string[] {
  const base = `src/services/${service}/`;
  return typeScriptFiles(base).flatMap((file) => {
    const from = layerOf(service, file);
    if (!from) return [];
    return projectImports(file).flatMap(({ specifier, target }) => {
      if (from.name === 'domain' && target.startsWith('generated/'))
        return [`${file} imports the contract's types ${specifier}`];
      if (!target.startsWith(base)) return [];
      const to = layerOf(service, target);
      if (!to) return [];
      const across = (from.name === 'flows' && to.name === 'store') || (from.name === 'store' && to.name === 'flows');
      return to.rank > from.rank || across ? [`${file} (${from.name}) imports ${specifier} (${to.name})`] : [];
    });
  });
}

/** Where a flow or a domain rule makes an `ApiError` itself instead of throwing one that errors.ts names. */
function errorsMadeInPlace(service: string): string[] {
  const base = `src/services/${service}`;
  return [
    ...typeScriptFiles(`${base}/domain`),
    ...(existsSync(join(root, base, 'flows')) ? typeScriptFiles(`${base}/flows`) : []),
  ].flatMap((file) =>
    readFileSync(join(root, file), 'utf8').includes('new ApiError(') ? [`${file} makes an ApiError`] : [],
  );
}

/**
 * Where a handler map, an HTTP step, a flow or a domain rule works on the database itself: an import of `kysely` (a type
 * included) or a `Kysely<…>` named in it. A handler calls flows, and a flow the store, or a port the module
 * builds over the accounts' functions.
 */
const ABOVE_THE_STORE = new Set(['handlers', 'http', 'flows', 'domain']);
function rawDatabaseInHandlers(service: string): string[] {
  return typeScriptFiles(`src/services/${service}`)
    .filter((file) => ABOVE_THE_STORE.has(layerOf(service, file)?.name ?? ''))
    .flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const imported = [...text.matchAll(IMPORT)].some(
        (match) => match[1] === 'kysely' || match[1]!.startsWith('kysely/'),
      );
      return imported || /\bKysely\s*</.test(text) ? [`${file} works on a raw Kysely`] : [];
    });
}

describe("a service's layers", () => {
  const services = readdirSync(join(root, 'src/services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('are told by folder and file', () => {
    expect(layerOf('publishing', 'src/services/publishing/flows/read.ts')).toEqual({ rank: 1, name: 'flows' });
    expect(layerOf('profiles', 'src/services/profiles/meHandlers.ts')).toEqual({ rank: 3, name: 'handlers' });
    expect(layerOf('profiles', 'src/services/profiles/settings.ts')).toBeUndefined();
  });

  it.each(services)(
    '%s: no import runs back up a layer, flows/ and store/ do not import each other, domain/ imports no generated/ type',
    (service) => {
      expect(layerBreaks(service)).toEqual([]);
    },
  );

  it.each(services)(
    '%s: its handler maps, HTTP steps, flows and domain rules hold no raw Kysely (they call flows, which call the store)',
    (service) => {
      expect(rawDatabaseInHandlers(service)).toEqual([]);
    },
  );

  it.each(services)(
    '%s: flows and domain rules throw the errors that errors.ts names, never an ApiError made in place',
    (service) => {
      expect(errorsMadeInPlace(service)).toEqual([]);
    },
  );
});

describe("a service's domain and store", () => {
  const services = readdirSync(join(root, 'src/services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const shaped = services.filter((service) => !(service in NOT_YET_SHAPED));

  it('are read with their kinds: type-only imports, values and re-exports told apart', () => {
    expect(shaped).toEqual(expect.arrayContaining(['developer', 'profiles', 'publishing']));
    const imports = projectImports('src/services/profiles/store/kysely/profileRow.ts');
    expect(imports).toContainEqual({
      specifier: '../../domain/profile.js',
      target: 'src/services/profiles/domain/profile.js',
      typeOnly: true,
    });
    expect(projectImports('src/services/developer/handlers.ts')).toContainEqual(
      expect.objectContaining({ target: 'src/services/developer/flows/sessions.js', typeOnly: false }),
    );
  });

  it.each(shaped)(
    '%s: domain/ imports nothing of store/, and store/ only the types of domain/ it implements',
    (service) => {
      expect(domainStoreArrows(service)).toEqual([]);
    },
  );

  it('let a store use values only of domain/ modules that import nothing but types', () => {
    const values = STORE_MAY_USE.flatMap((file) =>
      projectImports(file)
        .filter(({ typeOnly }) => !typeOnly)
        .map(({ specifier }) => `${file} imports ${specifier}`),
    );
    expect(values).toEqual([]);
  });

  it.each(Object.entries(NOT_YET_SHAPED))('%s is let off only while it still breaks the rule (%s)', (service) => {
    expect(services).toContain(service);
    expect(domainStoreArrows(service)).not.toEqual([]);
  });
});
