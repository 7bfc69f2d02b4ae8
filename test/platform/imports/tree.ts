import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The project's source as the import rules read it: the TypeScript files
 * under a folder, and a file's text. `projectTree` reads the checkout;
 * `withFiles` lays files over a tree, so a test can break a rule on purpose
 * and see the rule say so.
 */
export interface Tree {
  /** Every TypeScript file under a folder (project-relative, `/`-separated). */
  files(folder: string): string[];
  text(file: string): string;
}

const checkoutTexts = new Map<string, string>();

export const projectTree: Tree = {
  files: (folder) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
          .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
          .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
      : [],
  text: (file) => {
    // The checkout does not change while the rules read it; every rule walks every file's imports.
    let text = checkoutTexts.get(file);
    if (text === undefined) checkoutTexts.set(file, (text = readFileSync(join(root, file), 'utf8')));
    return text;
  },
};

/** `tree` with these files added or replaced (path → text). */
export function withFiles(tree: Tree, files: Readonly<Record<string, string>>): Tree {
  return {
    files: (folder) => {
      const prefix = `${folder.replace(/\/$/, '')}/`;
      const added = Object.keys(files).filter((file) => file.startsWith(prefix));
      return [...new Set([...tree.files(folder), ...added])];
    },
    text: (file) => files[file] ?? tree.text(file),
  };
}

/** An import of a file, read with the compiler's own parser (static, re-exports, `import()`, `import('…').T`). */
export interface Import {
  specifier: string;
  /** A relative import resolved to a project path (`.js` as written); undefined for a package. */
  target?: string;
  /** Brings types only (`import type`, every name `type`, `import('…').T`). */
  typeOnly: boolean;
}

const parsed = new Map<string, { text: string; source: ts.SourceFile }>();

/** A file's syntax tree (kept while its text is the same). */
export function sourceOf(tree: Tree, file: string): ts.SourceFile {
  const text = tree.text(file);
  const known = parsed.get(file);
  if (known?.text === text) return known.source;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  parsed.set(file, { text, source });
  return source;
}

/** A syntax tree's imports, read once per tree (the rules ask for each file's imports many times). */
const importsRead = new WeakMap<ts.SourceFile, Import[]>();

export function importsOf(tree: Tree, file: string): Import[] {
  const source = sourceOf(tree, file);
  const known = importsRead.get(source);
  if (known) return known;
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) =>
    found.push({
      specifier,
      typeOnly,
      target: specifier.startsWith('.') ? posix.normalize(posix.join(dirname(file), specifier)) : undefined,
    });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const everyNameTyped =
        !clause?.name &&
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.every((name) => name.isTypeOnly);
      add(node.moduleSpecifier.text, clause !== undefined && (clause.isTypeOnly || everyNameTyped));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, true);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  importsRead.set(source, found);
  return found;
}

/** The project's relative imports of a file. */
export const localImports = (tree: Tree, file: string) =>
  importsOf(tree, file).filter((found): found is Import & { target: string } => found.target !== undefined);

/** The `.ts` file a resolved import names (`x.js` → `x.ts`). */
export const sourceFile = (target: string) => target.replace(/\.js$/, '.ts');

/**
 * Every project file a file reaches through its imports, each with the
 * chain that reaches it (`a.ts → b.ts → c.ts`), following only through the
 * files `through` accepts (all by default).
 */
export function reached(
  tree: Tree,
  file: string,
  through: (file: string) => boolean = () => true,
): Map<string, string> {
  const chains = new Map<string, string>();
  const queue: [string, string][] = [[file, file]];
  while (queue.length) {
    const [from, chain] = queue.shift()!;
    for (const { target } of localImports(tree, from)) {
      const to = sourceFile(target);
      if (chains.has(to) || to === file) continue;
      const next = `${chain} → ${to}`;
      chains.set(to, next);
      if (through(to) && to.endsWith('.ts') && existsOrAdded(tree, to)) queue.push([to, next]);
    }
  }
  return chains;
}

function existsOrAdded(tree: Tree, file: string): boolean {
  try {
    tree.text(file);
    return true;
  } catch {
    return false;
  }
}
