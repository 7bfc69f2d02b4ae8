// @store-independent
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
    expect(localImports('src/platform/pipeline/pipeline.ts').map((i) => i.target)).toContain('src/platform/pipeline/router.js');
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
