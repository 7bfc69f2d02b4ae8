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
    entry.isDirectory()
      ? markdownFiles(join(dir, entry.name))
      : entry.name.endsWith('.md')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** A quoted path as a file name: no line suffix, no trailing punctuation; undefined for patterns and placeholders. */
function pathOf(quoted: string): string | undefined {
  if (/[*<>{}…|]|\.\.\./.test(quoted)) return undefined;
  return quoted.replace(/:\d+(-\d+)?$/, '').replace(/[.,;:)]+$/, '');
}

const pages = [join(projectRoot, 'README.md'), ...markdownFiles(join(projectRoot, 'docs'))];

/**
 * A measured figure: a time in µs or ms, or a ratio (`1.35×`, `× 3`). Such
 * figures age with every run, so they live in docs/performance.md alone; a
 * decision record says what was decided and links there for the numbers.
 * Settings (`REPLICA_CHECK_MS`) are names, not figures: the unit must follow
 * a number.
 */
const FIGURE = /\d[\d,.]*\s?(?:µs|ms)\b|\d[\d.]*\s?×|×\s?\d/g;
const records = markdownFiles(join(projectRoot, 'docs', 'decisions'));

describe('the decision records quote no figure (docs/performance.md holds them)', () => {
  it('finds figures where they are', () => {
    const performance = readFileSync(join(projectRoot, 'docs', 'performance.md'), 'utf8');
    expect(performance.match(FIGURE)?.length).toBeGreaterThan(10);
    expect(
      '60 draw in about 300 ms; 20 µs of a 600µs restore; 1.35× the CPU; REPLICA_MAX_LAG_MS'.match(FIGURE),
    ).toEqual(['300 ms', '20 µs', '600µs', '1.35×']);
  });

  it.each(records.map((record) => [relative(projectRoot, record), record]))('%s', (_name, record) => {
    expect(readFileSync(record, 'utf8').match(FIGURE) ?? []).toEqual([]);
  });
});

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
