// The support chat panel (issue 11): plain DOM, no React, loaded by the chat button with import() only
// when a visitor opens it. Its parts: the DOM kit and reply rendering (chat-dom.ts), the stored
// conversation (chat-state.ts), the question's answer stream (chat-stream.ts) and the hand-off form
// (chat-handoff.ts); this file lays them out and runs the conversation.
import { CHAT_QUESTION_MAX_CHARS, CHAT_TEXTS } from '../../../common/schemas/chat-texts.ts';
import { el, FIELD, PRIMARY, renderReply, SECONDARY } from './chat-dom.ts';
import { createHandoff } from './chat-handoff.ts';
import { loadChatState, saveChatState, type ChatMessage, type ChatState } from './chat-state.ts';
import { askAssistant } from './chat-stream.ts';

const PANEL_ID = 'chat-panel';

const tel = (phone: string) => `tel:${phone.replace(/[^+0-9]/g, '')}`;

/**
 * The published company's short name, phone and e-mail, as the chat button carries them (data-company,
 * data-phone, data-email, written from the root loader's data: decision 289). Read when used, so a
 * publish the page picked up since the panel opened is what the next reply names.
 */
function companyOf(button: HTMLElement) {
  const { company = '', phone = '', email = '' } = button.dataset;
  return { shortName: company, phone, email };
}

/** The company's phone and e-mail as links (the text reads exactly as the plain words). */
function contactLinksOf(button: HTMLElement) {
  const { phone, email } = companyOf(button);
  return { phone: `[${phone}](${tel(phone)})`, email: `[${email}](mailto:${email})` };
}

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
  private handoff: ReturnType<typeof createHandoff>;
  private tools: HTMLElement;

  constructor(
    private button: HTMLElement,
    private storageKey: string,
  ) {
    this.state = loadChatState(storageKey);
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

    this.tools = el('div', { class: 'flex flex-wrap gap-2 border-t border-slate-200 px-4 pt-3 dark:border-slate-700' });
    const talk = el('button', { type: 'button', class: SECONDARY, 'data-chat-handoff-open': '' }, CHAT_TEXTS.handoffOpen);
    talk.addEventListener('click', () => this.showHandoff());
    const clear = el('button', { type: 'button', class: SECONDARY }, CHAT_TEXTS.clear);
    clear.addEventListener('click', () => this.clear());
    this.tools.append(talk, clear);

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

    this.handoff = createHandoff({
      conversationId: () => this.state.conversationId,
      onCancel: () => this.hideHandoff(),
      onSent: () => {
        this.state.handedOff = true;
        this.hideHandoff();
        this.finishReply(CHAT_TEXTS.handoffSent);
      },
    });

    this.root.append(header, this.list, this.live, this.tools, this.handoff.form, this.composer);
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
    saveChatState(this.storageKey, this.state);
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
    if (message.offerHandoff) {
      const offer = el('button', { type: 'button', class: `${PRIMARY} mt-1` }, CHAT_TEXTS.handoffOpen);
      offer.addEventListener('click', () => this.showHandoff());
      li.append(offer);
    }
    return li;
  }

  private renderMessages() {
    const welcome = { text: CHAT_TEXTS.welcome(companyOf(this.button).shortName), isUser: false };
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

  private finishReply(text: string, options: { offerHandoff?: boolean; bubble?: HTMLLIElement } = {}) {
    const message = this.push({ text, isUser: false, offerHandoff: options.offerHandoff });
    const fresh = this.bubble(message);
    if (options.bubble) options.bubble.replaceWith(fresh);
    else this.list.append(fresh);
    // A fresh node, so the same words twice are still announced.
    const words = fresh.textContent?.replace(/^(Support|You): /, '') ?? text;
    this.live.replaceChildren(el('p', {}, `${CHAT_TEXTS.assistantSaid}: ${words}`));
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
      const answer = await askAssistant(question, this.state.conversationId);
      if (answer.kind === 'refused') {
        this.typing.remove();
        this.finishReply(answer.message ?? CHAT_TEXTS.emptyReply(contactLinksOf(this.button)));
        return;
      }
      for await (const event of answer.events) {
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
          if (event.outcome === 'empty' || !text.trim())
            this.finishReply(CHAT_TEXTS.emptyReply(contactLinksOf(this.button)), { bubble: streaming });
          else this.finishReply(text, { bubble: streaming, offerHandoff: event.outcome === 'unknown' });
        } else if (event.type === 'error') {
          ended = true;
          this.typing.remove();
          if (text.trim() && streaming) this.finishReply(text, { bubble: streaming });
          this.finishReply(CHAT_TEXTS.emptyReply(contactLinksOf(this.button)));
        }
      }
      if (!ended) throw new Error('the answer stopped before its end');
    } catch {
      this.typing.remove();
      if (text.trim() && streaming && !ended) this.finishReply(text, { bubble: streaming });
      this.finishReply(CHAT_TEXTS.networkError(contactLinksOf(this.button)));
    } finally {
      this.pending = false;
      this.updateSend();
      if (this.isOpen && this.handoff.form.hidden) this.input.focus();
    }
  }

  private showHandoff() {
    this.composer.hidden = true;
    this.tools.hidden = true;
    this.handoff.open();
  }

  private hideHandoff() {
    this.handoff.form.hidden = true;
    this.composer.hidden = false;
    this.tools.hidden = false;
    this.input.focus();
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
