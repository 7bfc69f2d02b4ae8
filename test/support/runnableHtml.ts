import { parseFragment } from 'parse5';

/** A node of parse5's default tree, as much as the walk below reads. */
interface Node {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
}

/** Elements that run or embed something whatever their attributes. */
const RUNNING_ELEMENTS = new Set([
  'script',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'frame',
  'base',
  'meta',
  'link',
]);

/**
 * What of an HTML text a browser would run, as a browser parses it (parse5 is
 * the HTML standard's parser): elements that run or embed something, event
 * handler attributes (`on…`), and `javascript:`/`vbscript:`/`data:` URLs in
 * any attribute. Text that only looks like markup (`onerror=` in a text node
 * or inside an attribute's value) is not found: it does not run.
 */
export function runnableHtml(html: string): string[] {
  const found: string[] = [];
  const walk = (node: Node) => {
    if (RUNNING_ELEMENTS.has(node.nodeName)) found.push(`<${node.nodeName}>`);
    for (const { name, value } of node.attrs ?? []) {
      if (/^on/i.test(name)) found.push(`${node.nodeName}[${name}]`);
      if (/^\s*(?:javascript|vbscript|data):/i.test(value.replace(/\s/g, '').replace(/\p{Cc}/gu, '')))
        found.push(`${node.nodeName}[${name}=${value}]`);
    }
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(parseFragment(html) as unknown as Node);
  return found;
}

/** `runnableHtml` of every string in a value (an answer's body, a list of posts, ...). */
export function runnableIn(value: unknown): string[] {
  if (typeof value === 'string') return runnableHtml(value);
  if (Array.isArray(value)) return value.flatMap(runnableIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(runnableIn);
  return [];
}
