import { describe, expect, it } from 'vitest';
import { htmlToText, RELATIVE_EXPLOIT_MESSAGE, sanitizeArticleHtml } from './article-html.ts';

describe('sanitizeArticleHtml (specification section 5)', () => {
  it('keeps the default tags plus img, h1, h2, h3 and iframe with their allowed attributes', () => {
    const html =
      '<h1>T</h1><h2>U</h2><h3>V</h3><p><strong>b</strong> <em>i</em></p><ul><li>x</li></ul>' +
      '<img src="https://img.example/a.png" alt="A" width="10" height="20" class="c">' +
      '<iframe src="https://video.example/e/1" width="560" height="315" frameborder="0" allowfullscreen></iframe>';
    expect(sanitizeArticleHtml(html)).toBe(html.replace('class="c">', 'class="c" />'));
  });

  it('removes scripts, event handlers and javascript: links', () => {
    const out = sanitizeArticleHtml(
      '<p onclick="alert(1)">Hi</p><script>alert(2)</script><a href="javascript:alert(3)">x</a><img src=x onerror="alert(4)"><svg><script>alert(5)</script></svg>',
    );
    expect(out).not.toMatch(/alert|onclick|onerror|script|javascript/i);
    expect(out).toContain('<p>Hi</p>');
  });

  it('keeps only the allowed inline styles and values, on images (the only tag with a style attribute)', () => {
    const out = sanitizeArticleHtml(
      '<img src="https://i.example/a.png" style="color:#ff0000;text-align:center;font-size:12px;margin:1em;padding:5%;position:fixed;background:url(x)">' +
        '<img src="https://i.example/b.png" style="color:rgb(1, 2, 3);text-align:justify;font-size:expression(1)">' +
        '<p style="color:#00ff00">only images carry a style attribute</p>',
    );
    expect(out).toContain('color:#ff0000');
    expect(out).toContain('text-align:center');
    expect(out).toContain('font-size:12px');
    expect(out).toContain('margin:1em');
    expect(out).toContain('padding:5%');
    expect(out).not.toMatch(/position|background|justify|expression/);
    expect(out).toContain('color:rgb(1, 2, 3)');
    expect(out).toContain('<p>only images carry a style attribute</p>');
  });

  it('allows http, https, ftp, mailto, tel and protocol-relative URLs, and drops other schemes', () => {
    const out = sanitizeArticleHtml(
      ['https://a.example', 'http://b.example', 'ftp://c.example', 'mailto:x@d.example', 'tel:+2348000000000', '//e.example/p', 'data:text/html,x', 'vbscript:x']
        .map((u) => `<a href="${u}">l</a>`)
        .join(''),
    );
    for (const kept of ['https://a.example', 'http://b.example', 'ftp://c.example', 'mailto:x@d.example', 'tel:+2348000000000', '//e.example/p']) {
      expect(out).toContain(`href="${kept}"`);
    }
    expect(out).not.toMatch(/data:|vbscript:/);
  });

  it('drops javascript:, data: and vbscript: however they are written (issue 45: case, leading spaces, controls, entities)', () => {
    const hrefs = ['  JaVaScRiPt:alert(1)', 'java&#9;script:alert(2)', '&#1;javascript:alert(3)', 'JAVASCRIPT:alert(4)', 'DaTa:text/html,x', ' VBScript:msgbox(5)', 'java&#x0A;script:alert(6)'];
    const out = sanitizeArticleHtml(
      [...hrefs.map((u) => `<a href="${u}">l</a>`), ...hrefs.map((u) => `<img src="${u}" alt="i">`), '<iframe src=" javascript:alert(7)"></iframe>'].join(''),
    );
    expect(out).not.toMatch(/script\s*:|data:|alert/i);
    expect(out).toContain('<a>l</a>');
  });

  it("rejects a URL beginning with 'relative:'", () => {
    expect(() => sanitizeArticleHtml('<a href="relative:evil">x</a>')).toThrow(RELATIVE_EXPLOIT_MESSAGE);
    expect(() => sanitizeArticleHtml('<img src=" Relative:evil">')).toThrow(RELATIVE_EXPLOIT_MESSAGE);
  });

  it('gives links that open a new tab rel="noopener noreferrer" and drops any other rel', () => {
    expect(sanitizeArticleHtml('<a href="https://a.example" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://a.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeArticleHtml('<a href="https://a.example" rel="opener">x</a>')).toBe('<a href="https://a.example">x</a>');
  });
});

describe('htmlToText', () => {
  it('strips tags and collapses whitespace', () => {
    expect(htmlToText('<p>Hello <b>big</b>\n\n world&nbsp;!</p><script>x()</script>')).toBe('Hello big world !');
  });
});
