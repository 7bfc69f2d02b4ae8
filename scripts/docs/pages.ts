/**
 * The HTML of the docs pages: the API reference page that Scalar renders in
 * the browser, and the changelog page. Neither has an inline script or style
 * (the server's Content-Security-Policy allows only files under
 * /docs/assets/ as script), and every link is to this origin.
 */

/** Text or an attribute value, escaped for HTML. */
export const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

export interface PageAssets {
  /** The Scalar bundle's entry module, e.g. `/docs/assets/scalar-1.72.1/standalone.esm.js`. */
  script: string;
  /** The script that runs before Scalar's (web/docs/docs.js), e.g. `/docs/assets/docs.0123abcd.js`. */
  setup: string;
  /** The docs' own stylesheet (header bar, changelog), e.g. `/docs/assets/docs.0123abcd.css`. */
  stylesheet: string;
}

export interface PageInfo {
  service: string;
  title: string;
  version: string;
}

/** The links every docs page has: the contract to download, and the changelog. */
function header(page: PageInfo, current: 'reference' | 'changelog'): string {
  const base = `/docs/${page.service}`;
  const link = (href: string, text: string, attributes = '') =>
    `<a href="${escapeHtml(href)}"${attributes}>${escapeHtml(text)}</a>`;
  const file = `${page.service}-${page.version}`;
  return `<header class="docs-header">
  <a class="docs-title" href="${base}">${escapeHtml(page.title)}</a> <span class="docs-version">${escapeHtml(page.version)}</span>
  <nav aria-label="This API">
    ${current === 'changelog' ? link(base, 'API reference') : link(`${base}/changelog`, 'Changelog')}
    <span class="docs-download">Contract: ${link(`${base}/openapi.yaml`, 'YAML', ` download="${escapeHtml(file)}.yaml"`)} ${link(`${base}/openapi.json`, 'JSON', ` download="${escapeHtml(file)}.json"`)}</span>
  </nav>
</header>`;
}

/**
 * The API reference page: a header with the downloads, and the element
 * Scalar's standalone bundle finds by its id (`api-reference`) and reads its
 * configuration from (`data-configuration`), so no inline script is needed.
 * The document is the served one (`/docs/<service>/reference.json`, the
 * downloadable contract less what Scalar cannot show): its servers are the
 * origin that serves it.
 */
export function referencePage(page: PageInfo, assets: PageAssets): string {
  const configuration = {
    url: `/docs/${page.service}/reference.json`,
    // Fonts from this machine's own list: the default ones would be fetched from Scalar's CDN.
    withDefaultFonts: false,
    telemetry: false,
    // The AI agent, the MCP generator (on localhost) and the "open in the hosted client" button use Scalar's servers.
    agent: { disabled: true },
    hideClientButton: true,
    // The header's links download the contract as served (the same file in both forms).
    documentDownloadType: 'none',
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    showDeveloperTools: 'never',
    persistAuth: false,
    mcp: { disabled: true },
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} ${escapeHtml(page.version)}: API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(assets.stylesheet)}">
<script src="${escapeHtml(assets.setup)}"></script>
<script type="module" src="${escapeHtml(assets.script)}"></script>
</head>
<body>
${header(page, 'reference')}
<noscript><p class="docs-noscript">This reference needs JavaScript. The contract itself: <a href="/docs/${escapeHtml(page.service)}/openapi.yaml">YAML</a>, <a href="/docs/${escapeHtml(page.service)}/openapi.json">JSON</a>.</p></noscript>
<div id="api-reference" data-configuration="${escapeHtml(JSON.stringify(configuration))}"></div>
</body>
</html>
`;
}

/** Inline Markdown of a changelog line: `code` spans; the rest as text. */
const inline = (text: string) =>
  text
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part),
    )
    .join('');

/**
 * The Markdown that `changelogMarkdown` (scripts/contract-versions.ts)
 * writes, as HTML: headings, lists and paragraphs are all it uses.
 */
export function markdownToHtml(markdown: string): string {
  const html: string[] = [];
  let list = false;
  for (const line of markdown.split('\n')) {
    const item = /^- (.*)$/.exec(line);
    if (!item && list) {
      html.push('</ul>');
      list = false;
    }
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) html.push(`<h${heading[1]!.length}>${inline(heading[2]!)}</h${heading[1]!.length}>`);
    else if (item) {
      if (!list) html.push('<ul>');
      list = true;
      html.push(`<li>${inline(item[1]!)}</li>`);
    } else if (line.trim()) html.push(`<p>${inline(line)}</p>`);
  }
  if (list) html.push('</ul>');
  return html.join('\n');
}

/** The changelog page: the contract's differences from its last release, grouped by kind. */
export function changelogPage(page: PageInfo, markdown: string, assets: Pick<PageAssets, 'stylesheet'>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}: changelog</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(assets.stylesheet)}">
</head>
<body>
${header(page, 'changelog')}
<main class="docs-changelog">
<h1>${escapeHtml(page.title)}: changelog</h1>
<p>What changed in the contract since its last release (<code>openapi/released/${escapeHtml(page.service)}.yaml</code>), as <code>npm run check:contracts</code> classifies it.</p>
${markdownToHtml(markdown)}
</main>
</body>
</html>
`;
}
