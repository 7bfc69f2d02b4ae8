import { describe, expect, it } from 'vitest';
import { readContract, type OpenApiDocument } from '../../scripts/contracts.js';
import { changelogMarkdown, checkContract } from '../../scripts/contract-versions.js';
import { CONTRACTS } from '../../scripts/tools.js';

type Mutable = Record<string, any>;

/** Today's contract `name`, changed by `change`. */
function changed(name: string, change: (document: Mutable) => void): OpenApiDocument {
  const document = structuredClone(readContract(name)) as Mutable;
  change(document);
  return document as OpenApiDocument;
}

const RESTORE = '/sites/{site}/posts/{post_ID}/restore';
const LOOKUP = '/profiles/{profileIdentifier}';

describe('every contract against its last release', () => {
  it.each(CONTRACTS)('%s has no breaking change without a new major version', (name) => {
    const check = checkContract(name);
    expect(check.refused.map((change) => change.description)).toEqual([]);
  });
});

describe('breaking changes are refused unless the major version goes up', () => {
  const breakingCases: [string, string, (document: Mutable) => void, RegExp][] = [
    ['a removed operation', 'profiles', (d) => delete d.paths['/avatar/{hash}'], /Removed.*operation GET \/avatar/],
    ['a renamed operation', 'publishing', (d) => (d.paths[RESTORE].post.operationId = 'undeletePost'), /operationId `restorePost` is now `undeletePost`/],
    ['a removed field', 'publishing', (d) => delete d.components.schemas.Post.properties.ID, /Removed.*property `ID`/],
    [
      'a removed enum value',
      'publishing',
      (d) => (d.components.schemas.Post.properties.status.enum = d.components.schemas.Post.properties.status.enum.filter((v: string) => v !== 'trash')),
      /status\/enum/,
    ],
    [
      'a new required parameter',
      'profiles',
      (d) => d.paths[LOOKUP].get.parameters.push({ name: 'region', in: 'query', required: true, description: 'x', schema: { type: 'string' } }),
      /required query parameter `region`/,
    ],
    [
      'a narrowed parameter type',
      'publishing',
      (d) => {
        d.components.parameters.pretty.schema = { type: 'integer' };
      },
      /query parameter `pretty`/,
    ],
    [
      'a changed success status',
      'publishing',
      (d) => {
        const responses = d.paths[RESTORE].post.responses;
        responses['201'] = responses['200'];
        delete responses['200'];
      },
      /Removed.*Response 200/,
    ],
  ];

  it.each(breakingCases)('%s is breaking', (_, name, change, described) => {
    const check = checkContract(name, changed(name, change));
    expect(check.refused.length).toBeGreaterThan(0);
    expect(check.refused.map((c) => c.description).join('\n')).toMatch(described);
  });

  it.each(breakingCases)('%s is accepted with a new major version', (_, name, change) => {
    const check = checkContract(
      name,
      changed(name, (d) => {
        change(d);
        d.info.version = `${Number(String(d.info.version).split('.')[0]) + 1}.0.0`;
      }),
    );
    expect(check.breaking.length).toBeGreaterThan(0);
    expect(check.refused).toEqual([]);
  });

  it('a new optional field is compatible, and the changelog lists it', () => {
    const check = checkContract(
      'profiles',
      changed('profiles', (d) => {
        d.components.schemas.AnonymousProfile.properties.nickname = { type: 'string', description: 'x' };
        d.info.version = '3.1.0';
      }),
    );
    expect(check.breaking).toEqual([]);
    expect(check.changes.some((c) => c.kind === 'non-breaking' && /nickname/.test(c.description))).toBe(true);
    const changelog = changelogMarkdown(check);
    expect(changelog).toContain('## Changes since 3.0.0 (now 3.1.0)');
    expect(changelog).toMatch(/### Compatible\n\n(- .*\n)*- .*nickname/);
  });

  it('a new value of an enum marked x-extensible-enum (error codes) is compatible; of another enum, or a removed one, breaking', () => {
    const code = (d: Mutable) => d.components.schemas.Error.properties.code;
    const added = checkContract('developer', changed('developer', (d) => code(d).enum.push('brand_new_code')));
    expect(added.refused).toEqual([]);
    expect(added.changes.some((c) => c.kind === 'non-breaking' && /extensible enum/.test(c.description))).toBe(true);
    const closed = checkContract(
      'developer',
      changed('developer', (d) => {
        delete code(d)['x-extensible-enum'];
        code(d).enum.push('brand_new_code');
      }),
    );
    expect(closed.refused.length).toBeGreaterThan(0);
    const removed = checkContract('developer', changed('developer', (d) => (code(d).enum = code(d).enum.slice(1))));
    expect(removed.refused.length).toBeGreaterThan(0);
  });

  it('the changelog of an unchanged contract says so', () => {
    expect(changelogMarkdown(checkContract('profiles', readContract('released/profiles')))).toMatch(/None: this is release 3\.0\.0/);
  });
});
