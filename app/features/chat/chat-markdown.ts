// The small Markdown subset the assistant's replies may use, parsed here into plain data and built
// into DOM nodes by the panel with textContent only: paragraphs, "- " and "1. " lists, **bold**, and
// links to our own pages, tel: and mailto:. Anything else stays literal text (never HTML).

export type ChatInline = { type: 'text'; text: string } | { type: 'bold'; text: string } | { type: 'link'; text: string; href: string };
export type ChatBlock =
  | { type: 'p'; lines: ChatInline[][] }
  | { type: 'ul' | 'ol'; items: ChatInline[][] };

/** Our own path (not protocol-relative), a telephone number, or an e-mail address. */
export function isAllowedHref(href: string): boolean {
  return (
    /^\/(?![/\\])[A-Za-z0-9\-._~/#?=&%]*$/.test(href) ||
    /^tel:\+?[0-9][0-9 ()-]{2,30}$/.test(href) ||
    /^mailto:[^\s@<>()"]+@[^\s@<>()"]+\.[A-Za-z]{2,}$/.test(href)
  );
}

const INLINE = /\*\*([^*\n]+?)\*\*|\[([^\]\n]{1,200})\]\(([^)\s]{1,300})\)/g;

export function parseInline(line: string): ChatInline[] {
  const out: ChatInline[] = [];
  let last = 0;
  const push = (node: ChatInline) => {
    const prev = out.at(-1);
    if (node.type === 'text' && prev?.type === 'text') prev.text += node.text;
    else if (node.type !== 'text' || node.text) out.push(node);
  };
  for (const m of line.matchAll(INLINE)) {
    push({ type: 'text', text: line.slice(last, m.index) });
    if (m[1] !== undefined) push({ type: 'bold', text: m[1] });
    else if (isAllowedHref(m[3])) push({ type: 'link', text: m[2], href: m[3] });
    else push({ type: 'text', text: m[2] });
    last = m.index + m[0].length;
  }
  push({ type: 'text', text: line.slice(last) });
  return out;
}

const BULLET = /^\s*[-*•]\s+/;
const NUMBERED = /^\s*\d{1,3}[.)]\s+/;

export function parseChatMarkdown(text: string): ChatBlock[] {
  const blocks: ChatBlock[] = [];
  for (const chunk of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((l) => l.trim() !== '');
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length) blocks.push({ type: 'p', lines: paragraph.map((l) => parseInline(l.trim())) });
      paragraph = [];
    };
    for (const line of lines) {
      const kind = BULLET.test(line) ? 'ul' : NUMBERED.test(line) ? 'ol' : null;
      if (!kind) {
        paragraph.push(line);
        continue;
      }
      flush();
      const item = parseInline(line.replace(kind === 'ul' ? BULLET : NUMBERED, ''));
      const prev = blocks.at(-1);
      if (prev && prev.type === kind) prev.items.push(item);
      else blocks.push({ type: kind, items: [item] });
    }
    flush();
  }
  return blocks;
}
