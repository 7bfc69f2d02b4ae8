import { describe, expect, it } from 'vitest';
import type { SiteRecord } from '../../../../src/services/publishing/domain/records.js';
import { base62, shortUrl } from '../../../../src/services/publishing/domain/links.js';
import { parseSiteRef } from '../../../../src/services/publishing/domain/siteRef.js';

const site = { id: 1234, domain: 'demo.example.com', path: '' } as SiteRecord;

describe('parseSiteRef (the site path parameter)', () => {
  it('digits name a site by ID; anything else is a domain, :: a sub-folder per level', () => {
    expect(parseSiteRef('1234')).toEqual({ kind: 'id', id: 1234 });
    expect(parseSiteRef('demo.example.com')).toEqual({ kind: 'address', domain: 'demo.example.com', path: '' });
    expect(parseSiteRef('demo.example.com::blog::2026')).toEqual({
      kind: 'address',
      domain: 'demo.example.com',
      path: 'blog/2026',
    });
    expect(parseSiteRef('12a')).toEqual({ kind: 'address', domain: '12a', path: '' });
  });
});

describe('short links (wpme_get_shortlink)', () => {
  it('base 62 as the platform counts: digits, lower case, upper case', () => {
    expect([0, 9, 10, 35, 36, 61, 62, 1234].map(base62)).toEqual(['0', '9', 'a', 'z', 'A', 'Z', '10', 'jU']);
  });

  it('by slug for a published post with a short plain slug; else by kind and ID; none for other types', () => {
    const base = 'https://wp.me';
    expect(shortUrl(base, site, { id: 5, type: 'post', status: 'publish', slug: 'hello' })).toBe(
      'https://wp.me/sjU-hello',
    );
    expect(shortUrl(base, site, { id: 5, type: 'post', status: 'publish', slug: 'hello-world' })).toBe(
      'https://wp.me/pjU-5',
    );
    expect(shortUrl(base, site, { id: 5, type: 'post', status: 'draft', slug: 'hello' })).toBe('https://wp.me/pjU-5');
    expect(shortUrl(base, site, { id: 62, type: 'page', status: 'publish', slug: 'about' })).toBe(
      'https://wp.me/PjU-10',
    );
    expect(shortUrl(base, site, { id: 5, type: 'jetpack-portfolio', status: 'publish', slug: 'x' })).toBe('');
  });
});
