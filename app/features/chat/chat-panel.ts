// The support chat panel (issue 11): plain DOM, no React, loaded by the chat button with import() only
// when a visitor opens it. Model text reaches the page through textContent only (chat-markdown.ts).
import { company } from '../../../common/content/company.ts';
import { CHAT_QUESTION_MAX_CHARS, CHAT_TEXTS, type ChatStreamEvent } from '../../../common/schemas/chat-texts.ts';
import { FORM_MIN_FILL_MS } from '../../../common/form-guard.ts';
import { parseChatMarkdown, type ChatInline } from './chat-markdown.ts';

/** The specification's chat message (section 3), kept in session storage. */
interface ChatMessage {
  id: string;
  text: string;
  isUser: boolean;
  timestamp: number;
  /** An answer that found nothing: offers the hand-off right under it. */
  offerHandoff?: boolean;
}

interface ChatState {
  conversationId?: string;
  messages: ChatMessage[];
  open: boolean;
  handedOff?: boolean;
}

const PANEL_ID = 'chat-panel';

const tel = (phone: string) => `tel:${phone.replace(/[^+0-9]/g, '')}`;
/** The company's phone and e-mail as links (the text reads exactly as the plain words). */
const contactLinks = { phone: `[${company.phone}](${tel(company.phone)})`, email: `[${company.email}](mailto:${company.email})` };

function loadState(storageKey: string): ChatState {
  try {
    const raw = sessionStorage.getItem(storageKey);
    if (raw) {
      const parsed = JSON.parse(raw) as ChatState;
      if (Array.isArray(parsed.messages)) return parsed;
    }
  } catch {
    // storage refused or damaged: start afresh
  }
  return { messages: [], open: false };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

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

const BUTTON_BASE = 'inline-flex min-h-11 items-center justify-center rounded-md px-3 text-sm font-semibold';
const PRIMARY = `${BUTTON_BASE} bg-brand-700 text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400 dark:disabled:bg-slate-600 dark:disabled:text-slate-200`;
const SECONDARY = `${BUTTON_BASE} border border-slate-300 text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800`;
const FIELD = 'mt-1 block w-full min-h-11 rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900 dark:border-slate-500 dark:bg-slate-950 dark:text-slate-100';

class ChatPanel {
  readonly root: HTMLElement;
  private state: ChatState;
  private pending = false;
  private list: HTMLOListElement;
  private typing: HTMLLIElement;
  private input: HTMLInputElement;
  private send: HTMLButtonElement;
  private live: HTMLElement;
  private composer: HTMLFormElement;
  private handoff: HTMLFormElement;
  private handoffError: HTMLElement;
  private tools!: HTMLElement;
  private formToken: Promise<{ token: string; at: number }> | null = null;

  constructor(
    private button: HTMLElement,
    private storageKey: string,
  ) {
    this.state = loadState(storageKey);
    this.root = el('section', {
      id: PANEL_ID,
      role: 'dialog',
      'aria-modal': 'false',
      'aria-labelledby': 'chat-panel-title',
      'data-chat-panel': '',
      class:
        'fixed inset-x-2 bottom-20 z-50 flex max-h-[calc(100dvh-10rem)] flex-col overflow-y-auto rounded-xl border border-slate-200 bg-white text-slate-900 shadow-2xl sm:inset-x-auto sm:right-4 sm:w-96 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
    });
    this.root.hidden = true;

    const header = el('header', { class: 'flex items-start justify-between gap-3 bg-brand-700 px-4 py-3 text-white' });
    const titles = el('div');
    titles.append(el('h2', { id: 'chat-panel-title', class: 'text-base font-bold' }, CHAT_TEXTS.title), el('p', { class: 'text-sm text-brand-50' }, CHAT_TEXTS.subtitle));
    const close = el('button', { type: 'button', 'aria-label': CHAT_TEXTS.closeButton, class: 'grid size-11 shrink-0 place-items-center rounded-md text-2xl leading-none hover:bg-brand-800' }, '×');
    close.addEventListener('click', () => this.close(true));
    header.append(titles, close);

    this.list = el('ol', { 'aria-label': 'Conversation', class: 'flex min-h-32 flex-1 flex-col gap-3 overflow-y-auto px-4 py-4 text-sm sm:h-96' });
    this.typing = el('li', { class: 'self-start rounded-lg bg-slate-100 px-3 py-2 dark:bg-slate-800', 'data-chat-typing': '' });
    const dots = el('span', { class: 'flex gap-1', 'aria-hidden': 'true' });
    for (let i = 0; i < 3; i++) dots.append(el('span', { class: 'size-2 animate-pulse rounded-full bg-slate-500 dark:bg-slate-300' }));
    this.typing.append(dots, el('span', { class: 'sr-only' }, CHAT_TEXTS.typing));

    this.live = el('div', { class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-chat-live': '' });

    const tools = (this.tools = el('div', { class: 'flex flex-wrap gap-2 border-t border-slate-200 px-4 pt-3 dark:border-slate-700' }));
    const talk = el('button', { type: 'button', class: SECONDARY, 'data-chat-handoff-open': '' }, CHAT_TEXTS.handoffOpen);
    talk.addEventListener('click', () => this.showHandoff());
    const clear = el('button', { type: 'button', class: SECONDARY }, CHAT_TEXTS.clear);
    clear.addEventListener('click', () => this.clear());
    tools.append(talk, clear);

    this.composer = el('form', { class: 'flex gap-2 px-4 py-3', novalidate: '' });
    const label = el('label', { for: 'chat-panel-input', class: 'sr-only' }, CHAT_TEXTS.inputLabel);
    this.input = el('input', {
      id: 'chat-panel-input',
      type: 'text',
      autocomplete: 'off',
      maxlength: String(CHAT_QUESTION_MAX_CHARS),
      placeholder: CHAT_TEXTS.inputPlaceholder,
      class: `${FIELD} mt-0 flex-1`,
    });
    this.send = el('button', { type: 'submit', class: PRIMARY }, CHAT_TEXTS.send);
    this.composer.append(label, this.input, this.send);
    this.input.addEventListener('input', () => this.updateSend());
    this.composer.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.ask();
    });

    this.handoff = this.buildHandoff();
    this.handoffError = this.handoff.querySelector('[data-chat-handoff-error]')!;

    this.root.append(header, this.list, this.live, tools, this.handoff, this.composer);
    this.root.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.close(true);
      }
    });
    document.body.append(this.root);
    this.renderMessages();
    this.updateSend();
  }

  private buildHandoff(): HTMLFormElement {
    const form = el('form', { class: 'space-y-3 border-t border-slate-200 px-4 py-3 text-sm dark:border-slate-700', 'aria-labelledby': 'chat-handoff-title' });
    form.hidden = true;
    const field = (name: string, labelText: string, type: string, required: boolean, autocomplete: string) => {
      const wrap = el('div');
      const id = `chat-handoff-${name}`;
      const input = el('input', { id, name, type, autocomplete, maxlength: name === 'phone' ? '50' : '200', class: FIELD });
      input.required = required;
      wrap.append(el('label', { for: id, class: 'font-medium' }, labelText), input);
      return wrap;
    };
    // The honeypot of the public forms: hidden from people and assistive technology.
    const trap = el('div', { class: 'hidden', 'aria-hidden': 'true' });
    trap.append(el('input', { name: 'homepageUrl', type: 'text', tabindex: '-1', autocomplete: 'off' }));
    const actions = el('div', { class: 'flex flex-wrap gap-2' });
    const submit = el('button', { type: 'submit', class: PRIMARY, 'data-chat-handoff-submit': '' }, CHAT_TEXTS.handoffSubmit);
    const cancel = el('button', { type: 'button', class: SECONDARY }, CHAT_TEXTS.handoffCancel);
    cancel.addEventListener('click', () => this.hideHandoff());
    actions.append(submit, cancel);
    form.append(
      el('h3', { id: 'chat-handoff-title', class: 'font-semibold' }, CHAT_TEXTS.handoffTitle),
      el('p', { class: 'text-slate-700 dark:text-slate-300' }, CHAT_TEXTS.handoffIntro),
      field('name', CHAT_TEXTS.handoffName, 'text', true, 'name'),
      field('email', CHAT_TEXTS.handoffEmail, 'email', true, 'email'),
      field('phone', CHAT_TEXTS.handoffPhone, 'tel', false, 'tel'),
      trap,
      el('p', { role: 'alert', class: 'font-medium text-red-700 dark:text-red-300', 'data-chat-handoff-error': '' }),
      actions,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.submitHandoff(form, submit);
    });
    return form;
  }

  get isOpen() {
    return !this.root.hidden;
  }

  open(focus: boolean) {
    this.root.hidden = false;
    this.button.setAttribute('aria-controls', PANEL_ID);
    this.button.setAttribute('aria-expanded', 'true');
    this.state.open = true;
    this.save();
    this.scrollDown();
    if (focus) this.input.focus();
  }

  close(returnFocus: boolean) {
    this.root.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    this.state.open = false;
    this.save();
    if (returnFocus) this.button.focus();
  }

  toggle() {
    if (this.isOpen) this.close(true);
    else this.open(true);
  }

  destroy() {
    this.root.remove();
    this.button.removeAttribute('aria-controls');
    this.button.setAttribute('aria-expanded', 'false');
  }

  private save() {
    try {
      sessionStorage.setItem(this.storageKey, JSON.stringify(this.state));
    } catch {
      // storage full or refused: the conversation still works on this page
    }
  }

  private clear() {
    this.state = { messages: [], open: true };
    this.save();
    this.hideHandoff();
    this.renderMessages();
    this.live.textContent = '';
    this.input.focus();
  }

  private updateSend() {
    this.send.disabled = this.pending || this.input.value.trim() === '';
  }

  private bubble(message: Pick<ChatMessage, 'text' | 'isUser' | 'offerHandoff'>): HTMLLIElement {
    const li = el('li', {
      class: message.isUser
        ? 'max-w-[85%] self-end rounded-lg bg-brand-700 px-3 py-2 text-white'
        : 'max-w-[90%] self-start space-y-2 rounded-lg bg-slate-100 px-3 py-2 text-slate-900 dark:bg-slate-800 dark:text-slate-100',
      'data-chat-message': message.isUser ? 'user' : 'assistant',
    });
    li.append(el('span', { class: 'sr-only' }, `${message.isUser ? CHAT_TEXTS.youSaid : CHAT_TEXTS.assistantSaid}: `));
    const body = el('div', { class: 'space-y-2 break-words [&_a]:text-inherit' });
    if (message.isUser) body.textContent = message.text;
    else renderReply(body, message.text);
    li.append(body);
    if (message.offerHandoff) li.append(this.handoffOffer());
    return li;
  }

  private handoffOffer() {
    const b = el('button', { type: 'button', class: `${PRIMARY} mt-1` }, CHAT_TEXTS.handoffOpen);
    b.addEventListener('click', () => this.showHandoff());
    return b;
  }

  private renderMessages() {
    const welcome = { text: CHAT_TEXTS.welcome(company.shortName), isUser: false };
    this.list.replaceChildren(this.bubble(welcome), ...this.state.messages.map((m) => this.bubble(m)));
    if (this.pending) this.list.append(this.typing);
    this.scrollDown();
  }

  private scrollDown() {
    this.list.scrollTop = this.list.scrollHeight;
  }

  private push(message: Omit<ChatMessage, 'id' | 'timestamp'>): ChatMessage {
    const full: ChatMessage = { id: crypto.randomUUID(), timestamp: Date.now(), ...message };
    this.state.messages.push(full);
    this.save();
    return full;
  }

  private announce(text: string) {
    // A fresh node, so the same words twice are still announced.
    this.live.replaceChildren(el('p', {}, `${CHAT_TEXTS.assistantSaid}: ${text}`));
  }

  private finishReply(text: string, options: { offerHandoff?: boolean; bubble?: HTMLLIElement } = {}) {
    const message = this.push({ text, isUser: false, offerHandoff: options.offerHandoff });
    const fresh = this.bubble(message);
    if (options.bubble) options.bubble.replaceWith(fresh);
    else this.list.append(fresh);
    this.announce(fresh.textContent?.replace(/^(Support|You): /, '') ?? text);
    this.scrollDown();
  }

  /** Sends the question and shows the answer as it streams in. */
  async ask() {
    const question = this.input.value.trim();
    if (!question || this.pending) return; // specification section 5: ignored
    this.pending = true;
    this.input.value = '';
    this.updateSend();
    this.push({ text: question, isUser: true });
    this.renderMessages();

    let streaming: HTMLLIElement | undefined;
    let text = '';
    let ended = false;
    try {
      const res = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
        credentials: 'same-origin',
        body: JSON.stringify({ question, ...(this.state.conversationId ? { conversationId: this.state.conversationId } : {}) }),
      });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        this.typing.remove();
        if (res.status >= 400 && res.status < 500 && body?.message) this.finishReply(body.message);
        else this.finishReply(CHAT_TEXTS.emptyReply(contactLinks));
        return;
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line) continue;
          const event = JSON.parse(line) as ChatStreamEvent;
          if (event.type === 'start') {
            this.state.conversationId = event.conversationId;
            this.save();
          } else if (event.type === 'delta') {
            text += event.text;
            if (!streaming) {
              this.typing.remove();
              streaming = this.bubble({ text: '', isUser: false });
              streaming.setAttribute('aria-busy', 'true');
              this.list.append(streaming);
            }
            renderReply(streaming.lastElementChild as HTMLElement, text);
            this.scrollDown();
          } else if (event.type === 'done') {
            ended = true;
            this.typing.remove();
            if (event.outcome === 'empty' || !text.trim()) this.finishReply(CHAT_TEXTS.emptyReply(contactLinks), { bubble: streaming });
            else this.finishReply(text, { bubble: streaming, offerHandoff: event.outcome === 'unknown' });
          } else if (event.type === 'error') {
            ended = true;
            this.typing.remove();
            if (text.trim() && streaming) this.finishReply(text, { bubble: streaming });
            this.finishReply(CHAT_TEXTS.emptyReply(contactLinks));
          }
        }
      }
      if (!ended) throw new Error('the answer stopped before its end');
    } catch {
      this.typing.remove();
      if (text.trim() && streaming && !ended) this.finishReply(text, { bubble: streaming });
      this.finishReply(CHAT_TEXTS.networkError(contactLinks));
    } finally {
      this.pending = false;
      this.updateSend();
      if (this.isOpen && this.handoff.hidden) this.input.focus();
    }
  }

  private showHandoff() {
    this.handoff.hidden = false;
    this.composer.hidden = true;
    this.tools.hidden = true;
    this.handoffError.textContent = '';
    // Issued when the form is shown; the server refuses a form sent back faster than people can.
    this.formToken ??= fetch('/api/form-token', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(async (r) => {
        if (!r.ok) throw new Error(String(r.status));
        return { token: ((await r.json()) as { token: string }).token, at: performance.now() };
      })
      .catch((err: unknown) => {
        this.formToken = null;
        throw err;
      });
    this.formToken.catch(() => undefined);
    (this.handoff.querySelector('input[name="name"]') as HTMLInputElement).focus();
  }

  private hideHandoff() {
    this.handoff.hidden = true;
    this.composer.hidden = false;
    this.tools.hidden = false;
    this.input.focus();
  }

  private async submitHandoff(form: HTMLFormElement, submit: HTMLButtonElement) {
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    submit.disabled = true;
    submit.textContent = CHAT_TEXTS.handoffBusy;
    this.handoffError.textContent = '';
    try {
      const guard = await (this.formToken ?? Promise.reject(new Error('no token')));
      const wait = FORM_MIN_FILL_MS.contact + 300 - (performance.now() - guard.at);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const res = await fetch('/api/chat/handoff', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({
          conversationId: this.state.conversationId,
          name: String(data.get('name') ?? ''),
          email: String(data.get('email') ?? ''),
          phone: String(data.get('phone') ?? ''),
          formToken: guard.token,
          homepageUrl: String(data.get('homepageUrl') ?? ''),
        }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        // Field errors come as 'body.email: Please enter ...': people need only the words.
        this.handoffError.textContent = body?.message ? body.message.replace(/^body\.\w+: /, '') : CHAT_TEXTS.handoffFailed;
        return;
      }
      this.formToken = null;
      form.reset();
      this.state.handedOff = true;
      this.hideHandoff();
      this.finishReply(CHAT_TEXTS.handoffSent);
    } catch {
      this.handoffError.textContent = CHAT_TEXTS.handoffFailed;
    } finally {
      submit.disabled = false;
      submit.textContent = CHAT_TEXTS.handoffSubmit;
    }
  }
}

let panel: ChatPanel | null = null;

/** Opens (or closes) the panel for this button; creates it on first use. */
export function toggleChatPanel(button: HTMLElement, storageKey: string) {
  if (!panel || !panel.root.isConnected) panel = new ChatPanel(button, storageKey);
  panel.toggle();
}

/** Shows the panel again without taking focus (it was open on the previous page). */
export function restoreChatPanel(button: HTMLElement, storageKey: string) {
  if (!panel || !panel.root.isConnected) panel = new ChatPanel(button, storageKey);
  panel.open(false);
}

/** Removes the panel (the chat is hidden on this path). */
export function destroyChatPanel() {
  panel?.destroy();
  panel = null;
}
