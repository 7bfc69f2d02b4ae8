import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withExternalValues } from '../../scripts/build-docs.js';
import { readContract } from '../../scripts/contracts.js';
import { sdkSample, withCodeSamples } from '../../scripts/docs/code-samples.js';
import { changelogPage, markdownToHtml, referencePage } from '../../scripts/docs/pages.js';
import { BUILD_INPUTS } from '../../scripts/fresh.mjs';
import { CONTRACTS, projectRoot } from '../../scripts/tools.js';
import { documentAt } from '../../src/platform/docs/docsRoutes.js';

/**
 * The pieces of `npm run docs` (scripts/build-docs.ts, scripts/docs/): the
 * SDK samples written into the contracts, the pages, and the document as
 * the server moves it to the serving origin.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('the SDK samples', () => {
  it('call the operation by its operationId from the service package, with the contract example values, a client at its server and a bearer credential', () => {
    expect(sdkSample('profiles', readContract('profiles'), '/profiles/{profileIdentifier}', 'get')).toBe(
      [
        `// npm install @contract-first/profiles@${(readContract('profiles').info as { version: string }).version}  (or the tarball npm run build:sdk packs: ./contract-first-profiles-${(readContract('profiles').info as { version: string }).version}.tgz)`,
        "import { createClient, getProfileById } from '@contract-first/profiles';",
        '',
        "const client = createClient({ baseUrl: 'http://localhost:8080/v3', auth: 'YOUR_API_KEY' }); // auth: optional",
        'const { data, error } = await getProfileById({',
        '  client,',
        '  path: {',
        "    profileIdentifier: '6db61e6dcbcf2390e4a46af426f26a133a3bee45021422fc7ae86e9136f14110',",
        '  },',
        '});',
      ].join('\n'),
    );
    const restore = sdkSample(
      'publishing',
      readContract('publishing'),
      '/sites/{site}/posts/{post_ID}/restore',
      'post',
    )!;
    expect(restore).toContain("auth: 'YOUR_BEARER_TOKEN' });\n");
    expect(restore).toContain("path: { site: 'demo.example.com', post_ID: 101 },");
  });

  it('take required headers and the JSON body from the contract', () => {
    const create = sdkSample('developer', readContract('developer'), '/applications', 'post')!;
    expect(create).toMatch(/headers: \{\n\s+'X-CSRF-Token': '[^']+',\n\s+\},/);
    expect(create).toMatch(/body: \{\n\s+name: 'Weather widget',/);
    expect(create).not.toContain('auth:');
  });

  it.each(CONTRACTS)('are written into every operation of %s, naming each of its path parameters', (name) => {
    const document = withCodeSamples(name, readContract(name));
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const method of METHODS) {
        const operation = item[method] as { operationId: string; 'x-codeSamples': { source: string }[] } | undefined;
        if (!operation) continue;
        const [sample] = operation['x-codeSamples'];
        expect(sample!.source).toContain(
          `import { createClient, ${operation.operationId} } from '@contract-first/${name}';`,
        );
        expect(sample!.source.split('\n')[0]).toBe(
          `// npm install @contract-first/${name}@${(document.info as { version: string }).version}  (or the tarball npm run build:sdk packs: ./contract-first-${name}-${(document.info as { version: string }).version}.tgz)`,
        );
        for (const [, parameter] of path.matchAll(/\{([^}]+)\}/g))
          expect(sample!.source).toMatch(new RegExp(`\\b${parameter}: `));
      }
    }
  });
});

describe('the document the docs serve', () => {
  it("keeps the contract's example files as it wrote them, where Redocly's bundle read them into text", () => {
    const source = {
      examples: { avatar: { summary: 's', externalValue: './examples/avatar.png' } },
      other: [{ value: 1 }],
    };
    const bundled = { examples: { avatar: { summary: 's', value: '\ufffdPNG...' } }, other: [{ value: 1 }] };
    expect(withExternalValues(source, bundled)).toEqual({
      examples: { avatar: { summary: 's', externalValue: './examples/avatar.png' } },
      other: [{ value: 1 }],
    });
  });

  it('names the serving origin in every server and SDK sample, and nothing else of the contract changes', () => {
    const written = withCodeSamples('profiles', readContract('profiles'));
    const served = documentAt(
      written as Parameters<typeof documentAt>[0],
      'https://docs.example.com',
      '/docs/profiles/openapi.json',
    );
    expect(served.servers).toEqual([{ url: 'https://docs.example.com/v3', description: expect.any(String) }]);
    expect((served.paths!['/avatar/{hash}']!.servers as unknown[])[0]).toMatchObject({
      url: 'https://docs.example.com',
    });
    const sample = (served.paths!['/profiles/{profileIdentifier}']!.get as { 'x-codeSamples': { source: string }[] })[
      'x-codeSamples'
    ][0]!.source;
    expect(sample).toContain("baseUrl: 'https://docs.example.com/v3'");
    expect(served.components).toEqual(written.components);
    expect(served.info).toEqual(written.info);
    // The one written at the contract's server is left alone when the base is that server.
    expect(
      documentAt(written as Parameters<typeof documentAt>[0], 'http://localhost:8080', '/docs/profiles/openapi.json')
        .servers![0]!.url,
    ).toBe('http://localhost:8080/v3');
  });
});

describe('the pages', () => {
  const page = { service: 'profiles', title: 'Profiles <API>', version: '3.0.0' };
  const assets = {
    script: '/docs/assets/scalar-1.0.0/standalone.esm.js',
    setup: '/docs/assets/docs.1.js',
    stylesheet: '/docs/assets/docs.1.css',
  };

  it('configure Scalar from an attribute (no inline script), off every service of its own: fonts, telemetry, agent, MCP, hosted client', () => {
    const html = referencePage(page, assets);
    expect(html).toContain('<title>Profiles &lt;API&gt; 3.0.0: API reference</title>');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const attribute = /data-configuration="([^"]*)"/.exec(html)![1]!;
    const configuration = JSON.parse(
      attribute
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&'),
    );
    expect(configuration).toMatchObject({
      url: '/docs/profiles/reference.json',
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      hideClientButton: true,
    });
    expect(configuration.proxyUrl).toBeUndefined();
    expect(html).toContain('href="/docs/profiles/openapi.yaml" download="profiles-3.0.0.yaml"');
    expect(html).toContain('href="/docs/profiles/openapi.json" download="profiles-3.0.0.json"');
    expect(html).toContain('href="/docs/profiles/changelog"');
  });

  it("render the changelog's Markdown: headings, lists, code, everything escaped", () => {
    expect(
      markdownToHtml('## Changes since 1.0.0\n\n### Breaking\n\n- [Removed] `GET /a<b>`\n- two\n\nText & more'),
    ).toBe(
      '<h2>Changes since 1.0.0</h2>\n<h3>Breaking</h3>\n<ul>\n<li>[Removed] <code>GET /a&lt;b&gt;</code></li>\n<li>two</li>\n</ul>\n<p>Text &amp; more</p>',
    );
    expect(changelogPage(page, '## None\n', assets)).not.toContain('<script');
  });

  it('are rebuilt when anything they are made of changes', () => {
    for (const input of [
      'openapi',
      'scripts/build-docs.ts',
      'scripts/docs',
      'scripts/contract-versions.ts',
      'web/docs',
      'package-lock.json',
    ]) {
      expect(BUILD_INPUTS.docs).toContain(input);
    }
    // Scalar's version is read from its package, whose version package-lock.json pins.
    const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    expect(lock.packages['node_modules/@scalar/api-reference']?.version).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
