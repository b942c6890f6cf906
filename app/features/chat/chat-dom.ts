// The small DOM kit of the chat panel (plain DOM, no React: the panel loads on its own) and the
// Markdown subset of a reply as nodes. Model text reaches the page through textContent only.
import { parseChatMarkdown, type ChatInline } from './chat-markdown.ts';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

const BUTTON_BASE = 'inline-flex min-h-11 items-center justify-center rounded-md px-3 text-sm font-semibold';
export const PRIMARY = `${BUTTON_BASE} bg-brand-700 text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400 dark:disabled:bg-slate-600 dark:disabled:text-slate-200`;
export const SECONDARY = `${BUTTON_BASE} border border-slate-300 text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800`;
export const FIELD = 'mt-1 block w-full min-h-11 rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900 dark:border-slate-500 dark:bg-slate-950 dark:text-slate-100';

function inlineNodes(parent: HTMLElement, inlines: ChatInline[]) {
  for (const i of inlines) {
    if (i.type === 'text') parent.append(document.createTextNode(i.text));
    else if (i.type === 'bold') parent.append(el('strong', { class: 'font-semibold' }, i.text));
    else parent.append(el('a', { href: i.href, class: 'font-medium underline underline-offset-2' }, i.text));
  }
}

/** A reply as DOM nodes: the Markdown subset, built with textContent. */
export function renderReply(target: HTMLElement, text: string) {
  target.replaceChildren();
  for (const block of parseChatMarkdown(text)) {
    if (block.type === 'p') {
      const p = el('p');
      block.lines.forEach((line, i) => {
        if (i) p.append(el('br'));
        inlineNodes(p, line);
      });
      target.append(p);
    } else {
      const list = el(block.type, { class: `${block.type === 'ul' ? 'list-disc' : 'list-decimal'} space-y-1 pl-5` });
      for (const item of block.items) {
        const li = el('li');
        inlineNodes(li, item);
        list.append(li);
      }
      target.append(list);
    }
  }
}
