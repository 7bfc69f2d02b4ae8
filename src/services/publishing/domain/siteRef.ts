/** A site as the API names it: by numeric ID, or by domain plus sub-folder (`''` at the root). */
export type SiteRef = { kind: 'id'; id: number } | { kind: 'address'; domain: string; path: string };

/**
 * Reads the `site` path parameter (already URL-decoded): digits name a site
 * by ID; anything else is a domain, matched exactly, where `domain::path`
 * names a site in a sub-folder (`demo.example.com::blog`; each further `::`
 * is one more folder level).
 */
export function parseSiteRef(site: string): SiteRef {
  if (/^[0-9]+$/.test(site)) return { kind: 'id', id: Number(site) };
  const [domain = '', ...folders] = site.split('::');
  return { kind: 'address', domain, path: folders.join('/') };
}
