import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/tools.js';

/**
 * The docs and decision records stay true to the tree: every project path
 * they quote (`src/…`, `test/…`, `scripts/…`, …) and every relative link
 * between pages names something that exists. A file moved or renamed
 * without its docs fails here, not in a newcomer's hands.
 */
const FOLDERS = ['src', 'test', 'scripts', 'openapi', 'docs', 'web', 'generated', 'sdk'];
const QUOTED_PATH = new RegExp(`\`((?:${FOLDERS.join('|')})/[^\`\\s]*)\``, 'g');
const LINK = /\]\(([^)#\s]+)(?:#[^)]*)?\)/g;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

/** A quoted path as a file name: no line suffix, no trailing punctuation; undefined for patterns and placeholders. */
function pathOf(quoted: string): string | undefined {
  if (/[*<>{}…|]|\.\.\./.test(quoted)) return undefined;
  return quoted.replace(/:\d+(-\d+)?$/, '').replace(/[.,;:)]+$/, '');
}

const pages = [join(projectRoot, 'README.md'), ...markdownFiles(join(projectRoot, 'docs'))];

describe('the docs quote paths that exist', () => {
  it.each(pages.map((page) => [relative(projectRoot, page), page]))('%s', (_name, page) => {
    const text = readFileSync(page, 'utf8');
    const missing: string[] = [];
    for (const [, quoted] of text.matchAll(QUOTED_PATH)) {
      const path = pathOf(quoted!);
      if (path && !existsSync(join(projectRoot, path))) missing.push(quoted!);
    }
    for (const [, target] of text.matchAll(LINK)) {
      if (/^[a-z]+:/i.test(target!)) continue; // a URL
      if (!existsSync(join(dirname(page), target!))) missing.push(`(${target})`);
    }
    expect(missing).toEqual([]);
  });
});
