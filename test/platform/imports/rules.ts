import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { importsOf, localImports, reached, root, sourceFile, sourceOf, type Tree } from './tree.js';

/**
 * The import rules of docs/architecture.md ("Layers", "A service's shape"), each a function from the source
 * to what breaks it (empty when kept). `imports.test.ts` runs each on the checkout, and on the checkout with a
 * file that breaks it on purpose.
 */

/** The services: each folder of src/services with TypeScript in it. */
export const servicesOf = (tree: Tree) => [...new Set(tree.files('src/services').map((file) => file.split('/')[2]!))];

/** What a file of the platform reaches, at any depth, outside src/platform/ (a service, the accounts, the app). */
export function platformOutside(tree: Tree): string[] {
  return tree
    .files('src/platform')
    .flatMap((file) =>
      [...reached(tree, file, (to) => to.startsWith('src/platform/'))]
        .filter(([to]) => !to.startsWith('src/platform/'))
        .map(([, chain]) => chain),
    );
}

/** What a file of the accounts reaches, at any depth, other than the accounts and the platform. */
export function accountsOutside(tree: Tree): string[] {
  const allowed = (to: string) => to.startsWith('src/accounts/') || to.startsWith('src/platform/');
  return tree
    .files('src/accounts')
    .flatMap((file) => [...reached(tree, file, allowed)].filter(([to]) => !allowed(to)).map(([, chain]) => chain));
}

/** What a file of a service reaches, at any depth, of another service or of the app (`src/*.ts`, `src/admin/`). */
export function serviceOutside(tree: Tree): string[] {
  return tree.files('src/services').flatMap((file) => {
    const own = file.split('/').slice(0, 3).join('/');
    const other = (to: string) =>
      (to.startsWith('src/services/') && !to.startsWith(`${own}/`)) ||
      /^src\/[^/]+\.ts$/.test(to) ||
      to.startsWith('src/admin/');
    return [...reached(tree, file, (to) => !other(to))].filter(([to]) => other(to)).map(([, chain]) => chain);
  });
}

/** Who a file of src/ is, as a user of the platform: the platform, the app (`src/*.ts`, `src/admin/`), the accounts, or one service. */
function userOf(file: string): string {
  const [, top, name] = file.split('/');
  if (top === 'services') return `services/${name}`;
  if (top === 'platform' || top === 'accounts') return top;
  return 'app';
}

/** The users of each module of `src/platform/store/`: who imports it, over src/ (the module itself left out). */
export function platformStoreUsers(tree: Tree): Map<string, Set<string>> {
  const users = new Map(tree.files('src/platform/store').map((module) => [module, new Set<string>()]));
  for (const file of tree.files('src')) {
    for (const { target } of localImports(tree, file)) {
      if (sourceFile(target) !== file) users.get(sourceFile(target))?.add(userOf(file));
    }
  }
  return users;
}

/** A module of src/platform/store/ that only one module below the platform uses (it belongs in that module). */
export function platformStoreOfOne(tree: Tree): string[] {
  return [...platformStoreUsers(tree)]
    .filter(([, who]) => !who.has('platform') && !who.has('app') && who.size < 2)
    .map(([module, who]) => `${module} is used only by ${[...who].join(', ') || 'nothing'}`);
}

/** The tables of the accounts: every table a migration of src/accounts creates. */
export function accountsTables(tree: Tree): string[] {
  const created = tree
    .files('src/accounts')
    .flatMap((file) => [...tree.text(file).matchAll(/\.createTable\(\s*['"]([a-z_]+)['"]/g)].map((match) => match[1]!));
  return [...new Set(created)].sort();
}

/**
 * Where a file writes a table, as the code says it: Kysely's `insertInto`, `replaceInto`, `updateTable`,
 * `deleteFrom` and `mergeInto` with the table's name, and SQL text (`INSERT INTO`, `UPDATE`, `DELETE FROM`).
 */
export function writesOf(tree: Tree, file: string, tables: readonly string[]): string[] {
  const names = tables.join('|');
  const written = new RegExp(
    `\\.(?:insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\\(\\s*['"](${names})['"]|\\b(?:INSERT\\s+(?:OR\\s+\\w+\\s+)?INTO|UPDATE|DELETE\\s+FROM)\\s+"?(${names})\\b`,
    'g',
  );
  return [...tree.text(file).matchAll(written)].map((match) => `${file} writes ${match[1] ?? match[2]}`);
}

/** A write of an accounts' table outside src/accounts (a service reads them, and calls the accounts to change them). */
export function accountsTablesWrittenOutside(tree: Tree): string[] {
  const tables = accountsTables(tree);
  return [...tree.files('src'), ...tree.files('scripts')]
    .filter((file) => !file.startsWith('src/accounts/'))
    .flatMap((file) => writesOf(tree, file, tables));
}

/**
 * Columns whose meaning the accounts alone decide: whether an address is verified is stored once, with the
 * account (docs/decisions/verified-with-the-account.md), and a service asks `src/accounts` rather than
 * reading or writing it.
 */
export const ACCOUNT_DECISION_COLUMNS = ['email_verified_at'] as const;

/** A file outside src/accounts, and not a migration, that names one of `ACCOUNT_DECISION_COLUMNS`. */
export function accountDecisionsOutside(tree: Tree): string[] {
  return tree
    .files('src')
    .filter((file) => !file.startsWith('src/accounts/') && !/\/migrations(\.ts$|\/)/.test(file))
    .flatMap((file) =>
      ACCOUNT_DECISION_COLUMNS.filter((column) => tree.text(file).includes(column)).map(
        (column) => `${file} names ${column}`,
      ),
    );
}

/**
 * The layers of a service, lowest first (docs/architecture.md, "A service's shape"): `domain/` (records, rules,
 * the store's interface); then side by side `flows/`, `store/` and the adapters the module builds for the flows
 * (`avatars/` and `qrCodes/`, images; `import/`, profile files read; `mail/`; `media/`, uploads and their files;
 * `rateLimit/`; `render/`); then
 * `http/`; the handler maps (`handlers.ts`, `*Handlers.ts`); and the module's entry points (`module.ts`, the admin
 * commands `admin.ts` and `admin/`). A file imports its own layer and those below, never one above, and
 * `flows/` and `store/` never each other. Files at a service's top of no layer (settings, errors, deps,
 * operations, demo data) are not ranked; every folder is.
 */
const BESIDE_FLOWS = new Set([
  'flows',
  'store',
  'avatars',
  'qrCodes',
  'import',
  'mail',
  'media',
  'rateLimit',
  'render',
]);
export function layerOf(service: string, file: string): { rank: number; name: string } | undefined {
  const inService = file.slice(`src/services/${service}/`.length);
  const parts = inService.split('/');
  const folder = parts.length > 1 ? parts[0]! : undefined;
  if (folder === 'domain') return { rank: 0, name: 'domain' };
  if (folder && BESIDE_FLOWS.has(folder)) return { rank: 1, name: folder };
  if (folder === 'http') return { rank: 2, name: 'http' };
  if (/^[a-zA-Z]*[hH]andlers\.(?:ts|js)$/.test(inService)) return { rank: 3, name: 'handlers' };
  if (folder === 'admin' || /^(?:module|admin)\.(?:ts|js)$/.test(inService)) return { rank: 4, name: 'module' };
  return undefined;
}

/** A folder of a service that is in no layer (the rules above would not see what it imports). */
export function foldersOfNoLayer(tree: Tree): string[] {
  return tree
    .files('src/services')
    .filter((file) => file.split('/').length > 4)
    .filter((file) => !layerOf(file.split('/')[2]!, file))
    .map((file) => `${file.split('/').slice(0, 4).join('/')}/ is in no layer`)
    .filter((found, index, all) => all.indexOf(found) === index);
}

/**
 * What runs back up a layer in one service, or from `flows/` to `store/` and back, or from `domain/` to the
 * contract: each ranked file's imports, followed through the service's files of no layer (a flow that imports
 * `deps.ts`, which imports a store, reaches the store).
 */
export function layerBreaks(tree: Tree, service: string): string[] {
  const base = `src/services/${service}/`;
  return tree.files(base).flatMap((file) => {
    const from = layerOf(service, file);
    if (!from) return [];
    const direct = importsOf(tree, file);
    const contract = direct
      .filter(({ target }) => from.name === 'domain' && target?.startsWith('generated/'))
      .map(({ specifier }) => `${file} imports the contract's types ${specifier}`);
    const unranked = (to: string) => to.startsWith(base) && !layerOf(service, to);
    return [
      ...contract,
      ...[...reached(tree, file, unranked)].flatMap(([to, chain]) => {
        if (!to.startsWith(base)) return [];
        const layer = layerOf(service, to);
        if (!layer) return [];
        const across =
          (from.name === 'flows' && layer.name === 'store') || (from.name === 'store' && layer.name === 'flows');
        return layer.rank > from.rank || across ? [`${chain} (${from.name} → ${layer.name})`] : [];
      }),
    ];
  });
}

/**
 * Modules of a `domain/` whose values a store may use, not only their types: each imports nothing but types
 * (no flow, nothing that reaches a store). Profiles' store interface declares the error its `saveProfiles`
 * throws (`SlugInUseError`); its search index keeps each verified account's username as `accountUsername`
 * makes it, and its back-fill migration makes it again for accounts stored before. Publishing's demo data
 * starts its posts with the columns a new post starts with (`NEW_POST_DEFAULTS`), and its trash keeps times
 * as every stored time is kept (`storedTime`).
 */
export const STORE_MAY_USE = [
  'src/services/profiles/domain/profilesStore.ts',
  'src/services/profiles/domain/accountUsername.ts',
  // A profile read from its row holds the service list's label and icon strings, not copies (sharingServiceText).
  'src/services/profiles/domain/verifiedAccountServices.ts',
  'src/services/publishing/domain/postColumns.ts',
  'src/services/publishing/domain/dates.ts',
  // The store throws its NoSuchMediaParent when a write names a parent that is no post of the item's site.
  'src/services/publishing/domain/media.ts',
];

/** What breaks the rule in one service: `domain/` importing `store/`, and `store/` importing a value of `domain/`. */
export function domainStoreArrows(tree: Tree, service: string): string[] {
  const base = `src/services/${service}`;
  const inside = (target: string, folder: string) => target.startsWith(`${base}/${folder}/`);
  const fromDomain = tree.files(`${base}/domain`).flatMap((file) =>
    localImports(tree, file)
      .filter(({ target }) => inside(target, 'store'))
      .map(({ specifier }) => `${file} imports ${specifier}`),
  );
  const fromStore = tree.files(`${base}/store`).flatMap((file) =>
    localImports(tree, file)
      .filter(
        ({ target, typeOnly }) => inside(target, 'domain') && !typeOnly && !STORE_MAY_USE.includes(sourceFile(target)),
      )
      .map(({ specifier }) => `${file} imports a value of ${specifier}`),
  );
  return [...fromDomain, ...fromStore];
}

/** The platform's error class, where it is declared. */
const API_ERROR_MODULE = 'src/platform/answers/errors.ts';

/**
 * Where a flow or a domain rule makes an `ApiError` itself instead of throwing one that errors.ts names: a `new`
 * of the class the platform declares, found by the import that binds it (under any local name, or through a
 * namespace import), not by the text `ApiError`.
 */
export function errorsMadeInPlace(tree: Tree, service: string): string[] {
  const base = `src/services/${service}`;
  return [...tree.files(`${base}/domain`), ...tree.files(`${base}/flows`)].flatMap((file) => {
    const source = sourceOf(tree, file);
    const names = new Set<string>();
    const namespaces = new Set<string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const found = localImports(tree, file).find(
        ({ specifier }) => specifier === statement.moduleSpecifier.getText(source).slice(1, -1),
      );
      if (!found || sourceFile(found.target) !== API_ERROR_MODULE) continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements)
          if ((element.propertyName ?? element.name).text === 'ApiError') names.add(element.name.text);
    }
    let made = false;
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) {
        const made_ = node.expression;
        if (ts.isIdentifier(made_) && names.has(made_.text)) made = true;
        if (
          ts.isPropertyAccessExpression(made_) &&
          ts.isIdentifier(made_.expression) &&
          namespaces.has(made_.expression.text) &&
          made_.name.text === 'ApiError'
        )
          made = true;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return made ? [`${file} makes an ApiError`] : [];
  });
}

/**
 * Where a handler map, an HTTP step, a flow or a domain rule works on the database itself: an import of `kysely` (a type
 * included) or a `Kysely<…>` named in it. A handler calls flows, and a flow the store, or a port the module
 * builds over the accounts' functions.
 */
const ABOVE_THE_STORE = new Set(['handlers', 'http', 'flows', 'domain']);
export function rawDatabaseAboveTheStore(tree: Tree, service: string): string[] {
  return tree
    .files(`src/services/${service}`)
    .filter((file) => ABOVE_THE_STORE.has(layerOf(service, file)?.name ?? ''))
    .flatMap((file) => {
      const imported = importsOf(tree, file).some(
        ({ specifier }) => specifier === 'kysely' || specifier.startsWith('kysely/'),
      );
      return imported || /\bKysely\s*</.test(tree.text(file)) ? [`${file} works on a raw Kysely`] : [];
    });
}

/**
 * Subpaths of a package without an `exports` map that its own documentation names as entry points: Ajv's
 * JSON Schema 2020-12 class (`ajv/dist/2020`).
 */
const DOCUMENTED_ENTRIES = new Set(['ajv/dist/2020.js']);

/** The package a bare specifier names, and the subpath after it (`@scope/name/sub` → `@scope/name`, `./sub`). */
function packageOf(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const length = specifier.startsWith('@') ? 2 : 1;
  const rest = parts.slice(length).join('/');
  return { name: parts.slice(0, length).join('/'), subpath: rest ? `./${rest}` : '.' };
}

/** Whether a package's `exports` map offers a subpath (exactly, or through a `*` pattern). */
function exported(exports: unknown, subpath: string): boolean {
  if (typeof exports === 'string' || Array.isArray(exports)) return subpath === '.';
  if (!exports || typeof exports !== 'object') return false;
  const keys = Object.keys(exports);
  if (!keys.some((key) => key.startsWith('.'))) return subpath === '.';
  return keys.some((key) => {
    if (key === subpath) return true;
    const star = key.indexOf('*');
    return star >= 0 && subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1));
  });
}

/**
 * An import of a file inside a package that the package does not offer: a subpath its `exports` map lacks, or
 * any subpath of a package without one (its files are its own to move), over src/ and scripts/.
 */
export function packageInternals(tree: Tree): string[] {
  return [...tree.files('src'), ...tree.files('scripts')].flatMap((file) =>
    importsOf(tree, file)
      .filter(
        ({ specifier }) => !specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.includes('$'),
      )
      .filter(({ specifier }) => {
        const { name, subpath } = packageOf(specifier);
        if (subpath === '.' || DOCUMENTED_ENTRIES.has(specifier)) return false;
        const manifest = join(root, 'node_modules', name, 'package.json');
        if (!existsSync(manifest)) return false;
        return !exported((JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown }).exports, subpath);
      })
      .map(({ specifier }) => `${file} imports ${specifier}, a file inside the package`),
  );
}

/** A module's migrations: their code runs against the schema of its time, untyped by today's tables. */
export const isMigrations = (file: string) => /(?:^|\/)migrations(?:\.ts$|\/)/.test(file);

/** The types that hold a store's tables (what a cast to one of them would widen or narrow). */
const DATABASE_TYPES = new Set(['Kysely', 'Transaction', 'ControlledTransaction', 'QueryCreator']);

/**
 * A store typed by no module's tables, or retyped by a cast, outside migrations (src/ and scripts/): `Kysely<any>`
 * (or a transaction of any), and an assertion (`as`, `<T>x`) to a store type, which makes a module's store hold
 * another's tables. A module reads another's through the accounts' functions or a port that module builds.
 */
export function databaseRetyped(tree: Tree): string[] {
  return [...tree.files('src'), ...tree.files('scripts')]
    .filter((file) => !isMigrations(file))
    .flatMap((file) => {
      const source = sourceOf(tree, file);
      const found: string[] = [];
      const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
      const storeType = (type: ts.TypeNode) =>
        ts.isTypeReferenceNode(type) && DATABASE_TYPES.has(type.typeName.getText(source).split('.').at(-1)!);
      const visit = (node: ts.Node): void => {
        if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && storeType(node.type))
          found.push(`${at(node)} casts to ${node.type.getText(source)}`);
        if (
          storeType(node as ts.TypeNode) &&
          (node as ts.TypeReferenceNode).typeArguments?.[0]?.kind === ts.SyntaxKind.AnyKeyword
        )
          found.push(`${at(node)} names ${node.getText(source)}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    });
}

/** A type assertion (`x as T`, `<T>x`): where it stands (`file:line`), the type it asserts, and that type's last name. */
interface Assertion {
  at: string;
  type: string;
  /** `Context` of `Koa.Context`, `const` of `as const`; undefined for a type that is not a name (`{ … }`, a union). */
  name: string | undefined;
}

/** Every type assertion in `files`. */
function assertionsIn(tree: Tree, files: readonly string[]): Assertion[] {
  return files.flatMap((file) => {
    const source = sourceOf(tree, file);
    const found: Assertion[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node))
        found.push({
          at: `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`,
          type: node.type.getText(source),
          name: ts.isTypeReferenceNode(node.type) ? node.type.typeName.getText(source).split('.').at(-1) : undefined,
        });
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  });
}

/** Koa's request context and its parts, as a cast names them. */
const CONTEXT_TYPES = new Set(['Context', 'ParameterizedContext', 'ExtendableContext', 'DefaultContext']);

/**
 * A Koa context made by a cast (src/ and scripts/): `{ req, res } as unknown as Context`, which type-checks a step
 * that reads more of Koa (`ctx.get`) and breaks only where the fake one reaches it. What runs outside Koa takes the
 * narrow type it uses (`AnswerContext`), which Koa's context is.
 */
export function contextsForged(tree: Tree): string[] {
  return assertionsIn(tree, [...tree.files('src'), ...tree.files('scripts')])
    .filter((assertion) => assertion.name !== undefined && CONTEXT_TYPES.has(assertion.name))
    .map(({ at, type }) => `${at} casts to ${type}`);
}

/** A service's handler modules: the map of its operations (`handlers.ts`) and the parts it spreads in (`…Handlers.ts`). */
const isHandlers = (file: string) => /^src\/services\/[^/]+\/(handlers|\w+Handlers)\.ts$/.test(file);

/**
 * A type assertion in a service's handlers (`as T`, `<T>x`; `as const` aside): what a handler takes is typed by
 * the contract (the generated operation types, the casting step's `CastBodies` and `CastQueries`) and what it
 * answers by its flows, so an assertion there hides a gap between the two that the compiler should name.
 */
export function handlersAsserting(tree: Tree): string[] {
  return assertionsIn(tree, tree.files('src').filter(isHandlers))
    .filter((assertion) => assertion.type !== 'const')
    .map(({ at, type }) => `${at} asserts ${type}`);
}

/** The most lines a file of src/ holds, but for data. */
export const MAX_LINES = 400;

/**
 * Files of src/ that are data, not code, and may be longer: publishing's demo data (the rows of the demo sites,
 * users and posts) and the modules' migrations (each a schema step of its time, kept as it was written, in order).
 */
export const DATA_FILES: readonly ((file: string) => boolean)[] = [
  (file) => file === 'src/services/publishing/store/demoData.ts',
  isMigrations,
];

/** A file of src/ over `MAX_LINES` lines that is not data. */
export function filesTooLong(tree: Tree): string[] {
  return tree
    .files('src')
    .filter((file) => !DATA_FILES.some((data) => data(file)))
    .map((file) => ({ file, lines: tree.text(file).split('\n').length - (tree.text(file).endsWith('\n') ? 1 : 0) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file} has ${lines} lines`);
}
