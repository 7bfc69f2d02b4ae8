import { describe, expect, it } from 'vitest';
import { readContract, type OpenApiDocument } from '../../scripts/contracts.js';
import {
  acknowledgedTightenings,
  changelogMarkdown,
  checkContract,
  judgedUnder,
} from '../../scripts/contract-versions.js';
import { CONTRACTS } from '../../scripts/tools.js';

type Mutable = Record<string, any>;

/**
 * The contract the cases below change: today's, but for publishing, whose 2.0.0 is a major release (any change
 * passes): its 1.3.0, the last minor release on the released 1.1.0, kept as a fixture.
 */
function base(name: string): OpenApiDocument {
  return readContract(name === 'publishing' ? '../test/fixtures/publishing-1.3.0' : name);
}

/** The contract `name` (see `base`), changed by `change`. */
function changed(name: string, change: (document: Mutable) => void): OpenApiDocument {
  const document = structuredClone(base(name)) as Mutable;
  change(document);
  return document as OpenApiDocument;
}

/**
 * Today's check of each contract against its release, and of publishing's fixture (`base`), made once for
 * the cases that read them: a check is a comparison of two whole contracts (about a second of CPU for
 * publishing's), and the same arguments always give the same result.
 */
const checks = new Map<string, ReturnType<typeof checkContract>>();
const todaysCheck = (name: string) => checks.get(name) ?? checks.set(name, checkContract(name)).get(name)!;
const baseCheck = (name: string) =>
  checks.get(`base:${name}`) ?? checks.set(`base:${name}`, checkContract(name, base(name))).get(`base:${name}`)!;

const RESTORE = '/sites/{site}/posts/{post_ID}/restore';
const LOOKUP = '/profiles/{profileIdentifier}';

describe('every contract against its last release', () => {
  it.each(CONTRACTS)('%s has no breaking change without a new major version', (name) => {
    const check = todaysCheck(name);
    expect(check.refused.map((change) => change.description)).toEqual([]);
  });
});

describe('a released version names one contract', () => {
  it.each(CONTRACTS)('%s moved its version as far as its changes since the release ask', (name) => {
    expect(todaysCheck(name).unversioned).toBeUndefined();
  });

  const cases: [string, (document: Mutable) => void, string, string][] = [
    ['a changed description', (d) => (d.paths[LOOKUP].get.description = 'Reworded.'), 'patch', '3.0.1'],
    [
      'a new optional field',
      (d) => (d.components.schemas.AnonymousProfile.properties.nickname = { type: 'string' }),
      'minor',
      '3.1.0',
    ],
    ['a new answer', (d) => (d.paths[LOOKUP].get.responses['410'] = { description: 'Gone' }), 'minor', '3.1.0'],
    ['a removed operation', (d) => delete d.paths['/avatar/{hash}'], 'major', '4.0.0'],
  ];
  it.each(cases)(
    '%s under the released version is refused, and accepted with a %s bump',
    (_, change, bump, version) => {
      const released = readContract('released/profiles');
      const document = structuredClone(released) as Mutable;
      change(document);
      // One comparison, judged under each version (`judgedUnder`: the same as comparing a copy carrying it, below).
      const same = checkContract('profiles', document as OpenApiDocument);
      expect(same.needed).toBe(bump);
      expect(same.unversioned).toMatch(
        new RegExp(`did not move: raise the ${bump} version \\(${version.replaceAll('.', '\\.')}\\)`),
      );
      expect(judgedUnder(same, version).unversioned).toBeUndefined();
      if (bump !== 'patch') expect(judgedUnder(same, '3.0.1').unversioned).toMatch(/moved only to 3\.0\.1/);
    },
  );

  it('a comparison judged under another version is the check of a copy that carries it', () => {
    const document = structuredClone(readContract('released/profiles')) as Mutable;
    document.components.schemas.AnonymousProfile.properties.nickname = { type: 'string' };
    const judged = judgedUnder(checkContract('profiles', document as OpenApiDocument), '3.0.1');
    document.info.version = '3.0.1';
    const compared = checkContract('profiles', document as OpenApiDocument);
    expect(judged).toEqual({
      ...compared,
      changes: compared.changes.filter((change) => change.where !== '/info/version'),
    });
    expect(compared.changes.some((change) => change.where === '/info/version')).toBe(true);
    expect(judged.unversioned).toMatch(/moved only to 3\.0\.1: raise the minor version \(3\.1\.0\)/);
  });

  it('an unchanged contract needs no new version', () => {
    expect(checkContract('profiles', readContract('released/profiles'))).toMatchObject({
      needed: 'none',
      moved: 'none',
    });
  });
});

describe('breaking changes are refused unless the major version goes up', () => {
  const breakingCases: [string, string, (document: Mutable) => void, RegExp][] = [
    ['a removed operation', 'profiles', (d) => delete d.paths['/avatar/{hash}'], /Removed.*operation GET \/avatar/],
    [
      'a renamed operation',
      'publishing',
      (d) => (d.paths[RESTORE].post.operationId = 'undeletePost'),
      /operationId `restorePost` is now `undeletePost`/,
    ],
    ['a removed field', 'publishing', (d) => delete d.components.schemas.Post.properties.ID, /Removed.*property `ID`/],
    [
      'a removed enum value',
      'publishing',
      (d) =>
        (d.components.schemas.Post.properties.status.enum = d.components.schemas.Post.properties.status.enum.filter(
          (v: string) => v !== 'trash',
        )),
      /status\/enum/,
    ],
    [
      'a new required parameter',
      'profiles',
      (d) =>
        d.paths[LOOKUP].get.parameters.push({
          name: 'region',
          in: 'query',
          required: true,
          description: 'x',
          schema: { type: 'string' },
        }),
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

  /** Each case's contract compared once: judged under its own version, then under a new major one. */
  const breakingChecks = new Map<string, ReturnType<typeof checkContract>>();
  const breakingCheck = ([what, name, change]: (typeof breakingCases)[number]) =>
    breakingChecks.get(what) ?? breakingChecks.set(what, checkContract(name, changed(name, change))).get(what)!;

  it.each(breakingCases)('%s is breaking', (...breakingCase) => {
    const check = breakingCheck(breakingCase);
    expect(check.refused.length).toBeGreaterThan(0);
    expect(check.refused.map((c) => c.description).join('\n')).toMatch(breakingCase[3]);
  });

  it.each(breakingCases)('%s is accepted with a new major version', (...breakingCase) => {
    const check = breakingCheck(breakingCase);
    const accepted = judgedUnder(check, `${Number(check.current.split('.')[0]) + 1}.0.0`);
    expect(accepted.breaking.length).toBeGreaterThan(0);
    expect(accepted.refused).toEqual([]);
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
    const changelog = changelogMarkdown(
      check,
      readContract('released/profiles'),
      changed(
        'profiles',
        (d) => (d.components.schemas.AnonymousProfile.properties.nickname = { type: 'string', description: 'x' }),
      ),
    );
    expect(changelog).toContain('## Changes since 3.0.0\n\nVersion 3.1.0 (released: 3.0.0): a minor release.');
    expect(changelog).toMatch(
      /### Shared definitions[^\n]*\n\n(- .*\n)*- Added field `nickname` of schema `AnonymousProfile` \(compatible\)/,
    );
    expect(changelog).not.toMatch(/now 3\.|\/paths\/~1|\[add\]/);
  });

  it('a new value of an enum marked x-extensible-enum (error codes) is compatible; of another enum, or a removed one, breaking', () => {
    const code = (d: Mutable) => d.components.schemas.Error.properties.code;
    const added = checkContract(
      'developer',
      changed('developer', (d) => code(d).enum.push('brand_new_code')),
    );
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
    const removed = checkContract(
      'developer',
      changed('developer', (d) => (code(d).enum = code(d).enum.slice(1))),
    );
    expect(removed.refused.length).toBeGreaterThan(0);
  });

  it('the changelog names each operation and says in words what changed and whether it breaks clients', () => {
    const current = changed('publishing', (d) => {
      d.paths[RESTORE].post.responses['409'] = { description: 'Conflict' };
      delete d.components.schemas.Post.properties.ID;
      d.info.version = '2.0.0';
    });
    const changelog = changelogMarkdown(
      checkContract('publishing', current),
      readContract('released/publishing'),
      current,
    );
    expect(changelog).toContain('Version 2.0.0 (released: 1.1.0): a major release, with breaking changes.');
    expect(changelog).toMatch(
      /### POST \/sites\/\{site\}\/posts\/\{post_ID\}\/restore \(`restorePost`\)\n\n(- .*\n)*- Added the 409( and 429)? answers? \(compatible\)/,
    );
    expect(changelog).toMatch(
      /### POST \/sites\/\{site\}\/posts\/\{post_ID\}\/restore \(`restorePost`\)\n\n- Removed field `ID` of the application\/json body of the 200 answer \(breaking\)/,
    );
  });

  it('the changelog says a change to several answers of an operation once', () => {
    const current = changed('publishing', (d) => {
      for (const status of ['409', '410']) d.paths[RESTORE].post.responses[status] = { description: 'New.' };
      d.info.version = '1.3.0';
    });
    const changelog = changelogMarkdown(
      checkContract('publishing', current),
      readContract('released/publishing'),
      current,
    );
    // The released contract lacks the 429 the current one declares: the line names it with the two added here.
    expect(changelog).toMatch(/- Added the 409(, 410 and 429| and 410) answers \(compatible\)/);
  });

  it('a new security scheme is compatible by itself; an existing operation that starts requiring it breaks its callers', () => {
    const scheme = { type: 'http', scheme: 'bearer', description: 'x' };
    const added = checkContract(
      'publishing',
      changed('publishing', (d) => (d.components.securitySchemes.brandNew = scheme)),
    );
    expect(added.refused).toEqual([]);
    const required = checkContract(
      'publishing',
      changed('publishing', (d) => {
        d.components.securitySchemes.brandNew = scheme;
        d.paths['/sites/{site}'].get.security = [{ brandNew: [] }];
      }),
    );
    expect(required.refused.length).toBeGreaterThan(0);
  });

  it('an answer header made required is a promise more, compatible; one made optional, or a request header made required, breaks clients', () => {
    const promised = checkContract(
      'oauth',
      changed('released/oauth', (d) => (d.components.headers['X-RateLimit-Limit'].required = true)),
    );
    expect(promised.refused).toEqual([]);
    expect(
      promised.changes.some(
        (change) => change.where === '/components/headers/X-RateLimit-Limit/required' && change.kind === 'non-breaking',
      ),
    ).toBe(true);
    const withdrawn = checkContract(
      'profiles',
      changed('released/profiles', (d) => (d.components.headers['X-RateLimit-Limit'].required = false)),
    );
    expect(withdrawn.refused.map((change) => change.where)).toContain('/components/headers/X-RateLimit-Limit/required');
    const demanded = checkContract(
      'profiles',
      changed('released/profiles', (d) => (d.components.parameters.IfNoneMatch.required = true)),
    );
    expect(demanded.refused.length).toBeGreaterThan(0);
  });

  it('the changelog of an unchanged contract says so', () => {
    expect(changelogMarkdown(checkContract('profiles', readContract('released/profiles')))).toMatch(
      /None: this is release 3\.0\.0/,
    );
  });
});

describe('acknowledged tightenings (openapi/released/tightenings.yaml): bounds the released server already enforced', () => {
  const refusedAt = (check: ReturnType<typeof checkContract>) =>
    check.refused.map((change) => change.description).join('\n');

  it("today's bounds on released inputs pass only as acknowledged: without the list they are breaking", () => {
    const check = baseCheck('publishing');
    expect(check.refused).toEqual([]);
    expect(check.changes.filter((change) => change.acknowledged).length).toBeGreaterThan(0);
    const unacknowledged = checkContract('publishing', base('publishing'), []);
    expect(refusedAt(unacknowledged)).toMatch(/maxLength validator in query parameter `http_envelope`/);
    expect(refusedAt(unacknowledged)).toMatch(/format in path parameter `post_ID`/);
    expect(refusedAt(checkContract('profiles', readContract('profiles'), []))).toMatch(
      /maxLength validator in query parameter `r`/,
    );
  });

  it('the changelog names each acknowledged bound with its reason', () => {
    const changelog = changelogMarkdown(
      baseCheck('publishing'),
      readContract('released/publishing'),
      base('publishing'),
    );
    expect(changelog).toContain(
      '- Bounded query parameter `pretty` by `maxLength: 16384` (compatible: the released server already refused every value it refuses; no query value can be longer',
    );
    expect(changelog).toMatch(/- Bounded path parameter `post_ID` by `format: int64` \(compatible: .*9007199254740991/);
  });

  it('another value of an acknowledged bound is breaking', () => {
    const check = checkContract(
      'publishing',
      changed('publishing', (d) => (d.components.schemas.Flag.anyOf[1].maxLength = 5)),
    );
    expect(refusedAt(check)).toMatch(/query parameter `pretty`/);
  });

  it('the same keyword on an input that is not acknowledged is breaking', () => {
    const check = checkContract(
      'publishing',
      changed('publishing', (d) => (d.components.parameters.site.schema.format = 'hostname')),
    );
    expect(refusedAt(check)).toMatch(/format in path parameter `site`/);
  });

  it('any other change to an acknowledged input is judged as before: a lowered maximum, a parameter made required', () => {
    const lowered = checkContract(
      'publishing',
      changed('publishing', (d) => (d.components.parameters.post_ID.schema.maximum = 1000)),
    );
    expect(refusedAt(lowered)).toMatch(/post_ID/);
    const required = checkContract(
      'profiles',
      changed('profiles', (d) => (d.components.parameters.AvatarRating.required = true)),
    );
    expect(refusedAt(required)).toMatch(/`r`/);
  });

  it('acknowledgements hold for the release they name only: after the next release they no longer apply', () => {
    expect(acknowledgedTightenings('publishing', '1.1.0').length).toBeGreaterThan(0);
    expect(acknowledgedTightenings('publishing', '1.2.0')).toEqual([]);
    expect(acknowledgedTightenings('developer', '1.0.0')).toEqual([]);
  });
});
