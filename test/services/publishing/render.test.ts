// @store-independent
import { describe, it, expect } from 'vitest';
import { renderContent, renderExcerpt, renderTitle } from '../../../src/services/publishing/render/index.js';
import type { RenderAttachment, RenderContext } from '../../../src/services/publishing/render/index.js';

const landscape: RenderAttachment = {
  ID: 5,
  URL: 'https://example.test/landscape.jpg',
  title: 'Landscape',
  caption: 'A wide one',
  alt: 'Hills & "sky"',
  width: 300,
  height: 200,
  mime_type: 'image/jpeg',
};
const portrait: RenderAttachment = {
  ID: 6,
  URL: 'https://example.test/portrait.png',
  title: 'Portrait',
  caption: '',
  alt: 'Tower',
  width: 200,
  height: 300,
  mime_type: 'image/png',
};
const pdf: RenderAttachment = {
  ID: 7,
  URL: 'https://example.test/notes.pdf',
  title: 'Notes',
  caption: '',
  alt: '',
  width: 0,
  height: 0,
  mime_type: 'application/pdf',
};
const ctx: RenderContext = { attachments: [landscape, portrait, pdf], postId: 42 };

const landscapeItem =
  '<figure class="gallery-item">\n<div class="gallery-icon landscape"><a href="https://example.test/landscape.jpg">' +
  '<img width="300" height="200" src="https://example.test/landscape.jpg" class="attachment-thumbnail size-thumbnail" ' +
  'alt="Hills &amp; &quot;sky&quot;" aria-describedby="gallery-1-5" /></a></div>' +
  '<figcaption class="wp-caption-text gallery-caption" id="gallery-1-5">A wide one</figcaption></figure>';
const portraitItem =
  '<figure class="gallery-item">\n<div class="gallery-icon portrait"><a href="https://example.test/portrait.png">' +
  '<img width="200" height="300" src="https://example.test/portrait.png" class="attachment-thumbnail size-thumbnail" ' +
  'alt="Tower" /></a></div>\n</figure>';

const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i + 1}`).join(' ');

describe('renderContent: paragraphs (@wordpress/autop)', () => {
  it('wraps blocks separated by a blank line in one <p> each', () => {
    expect(renderContent('First paragraph.\n\nSecond paragraph.', ctx)).toBe(
      '<p>First paragraph.</p>\n<p>Second paragraph.</p>\n',
    );
  });

  it('turns a single line break into <br />', () => {
    expect(renderContent('Line one\nLine two', ctx)).toBe('<p>Line one<br />\nLine two</p>\n');
  });
});

describe('renderContent: [caption]', () => {
  it('renders WordPress HTML5 caption markup, the text taken from after the image', () => {
    const raw = '[caption id="attachment_5" align="aligncenter" width="300"]<img src="a.jpg" /> Caption text[/caption]';
    expect(renderContent(raw, ctx)).toBe(
      '<figure id="attachment_5" aria-describedby="caption-attachment-5" style="width: 300px" ' +
        'class="wp-caption aligncenter"><img src="a.jpg" /><figcaption id="caption-attachment-5" ' +
        'class="wp-caption-text">Caption text</figcaption></figure>\n',
    );
  });

  it('accepts the caption attribute as the text', () => {
    const html = renderContent('[caption width="120" caption="From the attribute"]<img src="b.jpg" />[/caption]', ctx);
    expect(html).toBe(
      '<figure style="width: 120px" class="wp-caption alignnone"><img src="b.jpg" />' +
        '<figcaption class="wp-caption-text">From the attribute</figcaption></figure>\n',
    );
  });

  it('keeps a caption on its own line out of <p>, between paragraphs', () => {
    const html = renderContent('Before\n\n[caption width="10"]<img src="c.jpg" /> Text[/caption]\n\nAfter', ctx);
    expect(html).toMatch(/^<p>Before<\/p>\n<figure /);
    expect(html).toMatch(/<\/figure>\n<p>After<\/p>\n$/);
    expect(html).not.toContain('<p><figure');
  });

  it('escapes hostile attribute values, so no raw <script appears', () => {
    const html = renderContent(
      `[caption id='"><script>' align='"><script>alert(1)</script>' width="10"]<img src="d.jpg" /> Text[/caption]`,
      ctx,
    );
    expect(html).not.toContain('<script');
    expect(html).toContain('class="wp-caption &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});

describe('renderContent: [gallery]', () => {
  it('renders the image attachments in attachment order, outside any <p>', () => {
    expect(renderContent('Intro\n[gallery]\nOutro', ctx)).toBe(
      '<p>Intro</p>\n' +
        '<div id="gallery-1" class="gallery galleryid-42 gallery-columns-3 gallery-size-thumbnail">\n' +
        `${landscapeItem}\n${portraitItem}\n</div>\n` +
        '<p>Outro</p>\n',
    );
  });

  it('follows the order of ids and skips non-images and unknown IDs', () => {
    const html = renderContent('[gallery ids="6, 7,99,5" columns="2" size="medium"]', ctx);
    expect(html).toContain('class="gallery galleryid-42 gallery-columns-2 gallery-size-medium"');
    expect(html).not.toContain('notes.pdf');
    expect(html.indexOf('portrait.png')).toBeGreaterThan(-1);
    expect(html.indexOf('portrait.png')).toBeLessThan(html.indexOf('landscape.jpg'));
  });

  it('numbers the galleries of one post', () => {
    const html = renderContent('[gallery ids="5"]\n\n[gallery ids="6"]', ctx);
    expect(html).toContain('<div id="gallery-1" ');
    expect(html).toContain('<div id="gallery-2" ');
  });

  it('renders nothing without images', () => {
    expect(renderContent('[gallery ids="7,99"]', ctx)).toBe('');
    expect(renderContent('Text\n\n[gallery]', { attachments: [pdf] })).toBe('<p>Text</p>\n');
  });
});

describe('renderContent: [embed]', () => {
  it('renders a link fallback in an embed figure, outside any <p>', () => {
    expect(
      renderContent('[embed width="640" height="360"]https://www.youtube.com/watch?v=X&amp;t=5[/embed]', ctx),
    ).toBe(
      '<figure class="wp-block-embed">\n<div class="wp-block-embed__wrapper">' +
        '<a href="https://www.youtube.com/watch?v=X&amp;t=5">https://www.youtube.com/watch?v=X&amp;t=5</a></div>\n' +
        '</figure>\n',
    );
  });

  it('escapes the URL', () => {
    const html = renderContent('[embed]https://example.test/?q="><script>x()</script>[/embed]', ctx);
    expect(html).not.toContain('<script');
    expect(html).toContain('href="https://example.test/?q=&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"');
  });

  it('renders a non-http(s) URL as escaped text only', () => {
    expect(renderContent('[embed]javascript:alert("x")[/embed]', ctx)).toBe('<p>javascript:alert(&quot;x&quot;)</p>\n');
  });
});

describe('renderContent: unknown shortcodes', () => {
  it('keeps them exactly as written', () => {
    expect(renderContent('Before [unknown foo="bar"] after\n\n[unknown foo="bar"]x[/unknown]', ctx)).toBe(
      '<p>Before [unknown foo="bar"] after</p>\n<p>[unknown foo="bar"]x[/unknown]</p>\n',
    );
  });
});

describe('renderExcerpt', () => {
  it('generates an excerpt from the first 55 words of the content, followed by &hellip;', () => {
    expect(renderExcerpt('', words(60))).toBe(`<p>${words(55)}&hellip;</p>\n`);
  });

  it('adds no &hellip; when the content has 55 words or fewer', () => {
    expect(renderExcerpt('', words(55))).toBe(`<p>${words(55)}</p>\n`);
  });

  it('strips shortcodes and tags from the content before counting words', () => {
    const content =
      '<p>One <strong>two</strong></p><p>three</p>\n\n[gallery]\n\n[caption width="5"]<img src="x.jpg" /> hidden[/caption] four';
    expect(renderExcerpt('', content)).toBe('<p>One two three four</p>\n');
  });

  it('autops a stored excerpt, shortcodes stripped rather than expanded', () => {
    expect(renderExcerpt('Hand written[gallery]\n\nSecond line', words(60))).toBe(
      '<p>Hand written</p>\n<p>Second line</p>\n',
    );
  });
});

describe('renderTitle', () => {
  it('returns the stored title unchanged', () => {
    const title = ' Tom &amp; Jerry <em>[gallery]</em>\n';
    expect(renderTitle(title)).toBe(title);
  });
});
