import { describe, expect, it } from 'vitest';
import { isAllowedHref, parseChatMarkdown, parseInline } from './chat-markdown.ts';

describe('the chat Markdown subset', () => {
  it('keeps paragraphs, bullet and numbered lists', () => {
    expect(parseChatMarkdown('Here is what I found:\n\n- **Phone**: call us\n- Email\n\n1. One\n2. Two\nLast line')).toEqual([
      { type: 'p', lines: [[{ type: 'text', text: 'Here is what I found:' }]] },
      {
        type: 'ul',
        items: [
          [
            { type: 'bold', text: 'Phone' },
            { type: 'text', text: ': call us' },
          ],
          [{ type: 'text', text: 'Email' }],
        ],
      },
      { type: 'ol', items: [[{ type: 'text', text: 'One' }], [{ type: 'text', text: 'Two' }]] },
      { type: 'p', lines: [[{ type: 'text', text: 'Last line' }]] },
    ]);
  });

  it('links only to our own pages, tel: and mailto:', () => {
    expect(parseInline('[Services](/services#oil-gas) [Call](tel:+2348000000101) [Mail](mailto:info@koradelta.example)')).toEqual([
      { type: 'link', text: 'Services', href: '/services#oil-gas' },
      { type: 'text', text: ' ' },
      { type: 'link', text: 'Call', href: 'tel:+2348000000101' },
      { type: 'text', text: ' ' },
      { type: 'link', text: 'Mail', href: 'mailto:info@koradelta.example' },
    ]);
    for (const bad of ['javascript:alert%281%29', 'https://evil.example', '//evil.example/x', '/\\evil.example', 'data:text/html,x', 'tel:javascript']) {
      expect(isAllowedHref(bad), bad).toBe(false);
      expect(parseInline(`[click](${bad})`), bad).toEqual([{ type: 'text', text: 'click' }]);
    }
  });

  it('leaves HTML as literal text', () => {
    expect(parseChatMarkdown('<img src=x onerror=alert(1)> **<b>hi</b>**')).toEqual([
      {
        type: 'p',
        lines: [
          [
            { type: 'text', text: '<img src=x onerror=alert(1)> ' },
            { type: 'bold', text: '<b>hi</b>' },
          ],
        ],
      },
    ]);
  });
});
