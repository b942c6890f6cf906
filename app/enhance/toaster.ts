// The one toast renderer (decision 232), in plain DOM: the content pages' script mounts it on the
// server-rendered list (data-module="toaster"), and the React root mounts the same function in an
// effect. The stack is collapsed and spreads out on hover or focus, which also pauses every toast's
// timer. Escape closes the focused toast, or, with the keyboard elsewhere, the newest one (unless a
// dialog is open: Escape closes that first).

import { dismissToast, selectToastAction, subscribeToasts, toastDuration, toastItems, type ToastItem } from '../components/ui/toast-store.ts';

const CARD_CLASS = 'pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg transition-all duration-200';
const VARIANT_CLASS = {
  default: 'border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
  destructive: 'border-red-700 bg-red-700 text-white',
} as const;
const ACTION_CLASS =
  'inline-flex min-h-9 shrink-0 items-center self-center rounded-md border border-current px-3 text-sm font-semibold hover:bg-black/10 dark:hover:bg-white/10';
const CLOSE_CLASS = 'absolute top-2 right-2 rounded p-1 opacity-80 hover:opacity-100';
/** Cards under the third are hidden while the stack is collapsed. */
const STACKED_VISIBLE = 3;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The close button's cross (the icon set's 'x', drawn here: this module runs without React). */
function crossIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  for (const [k, v] of Object.entries({ class: 'size-4', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'aria-hidden': 'true' })) {
    svg.setAttribute(k, v);
  }
  for (const d of ['M18 6 6 18', 'm6 6 12 12']) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

function buildCard(item: ToastItem): HTMLLIElement {
  const variant = item.variant ?? 'default';
  const card = element('li', `${CARD_CLASS} ${VARIANT_CLASS[variant]}`);
  card.tabIndex = 0;
  card.dataset.variant = variant;
  // The live region sits inside the item: a list may only hold plain list items (axe 'list').
  const text = element('div', 'grid gap-1');
  text.setAttribute('role', variant === 'destructive' ? 'alert' : 'status');
  text.setAttribute('aria-atomic', 'true');
  text.append(element('p', 'text-sm font-semibold', item.title));
  if (item.description) text.append(element('p', 'text-sm opacity-90', item.description));
  card.append(text);
  if (item.action) {
    const action = element('button', ACTION_CLASS, item.action.label);
    action.type = 'button';
    action.addEventListener('click', () => selectToastAction(item.id));
    card.append(action);
  }
  const close = element('button', CLOSE_CLASS);
  close.type = 'button';
  close.setAttribute('aria-label', 'Close notification');
  close.append(crossIcon());
  close.addEventListener('click', () => dismissToast(item.id));
  card.append(close);
  card.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault(); // handled: the stack's own Escape (the newest toast) leaves it alone
    dismissToast(item.id);
  });
  return card;
}

/** A toast's time left: it runs only while the stack is neither hovered nor focused. */
interface Shown {
  card: HTMLLIElement;
  remaining: number;
  startedAt: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** Draws the toasts into `list` (the <ol> of the Notifications region); returns what undoes it. */
export function enhanceToaster(list: HTMLElement): () => void {
  const shown = new Map<number, Shown>();
  let hovered = false;
  let focused = false;
  const expanded = () => hovered || focused;

  const stop = (s: Shown) => {
    if (s.timer === undefined) return;
    clearTimeout(s.timer);
    s.timer = undefined;
    s.remaining -= Date.now() - s.startedAt;
  };
  const run = (id: number, s: Shown) => {
    if (s.timer !== undefined) return;
    s.startedAt = Date.now();
    s.timer = setTimeout(() => dismissToast(id), Math.max(0, s.remaining));
  };

  const draw = () => {
    const items = toastItems();
    const live = new Set(items.map((t) => t.id));
    for (const [id, s] of shown) {
      if (live.has(id)) continue;
      shown.delete(id);
      stop(s);
      s.card.remove();
    }
    // A closed toast can take the focus or the pointer with it without a blur or leave event: the
    // others must not stay paused.
    if (focused && !list.contains(document.activeElement)) focused = false;
    if (hovered && !list.matches(':hover')) hovered = false;
    const spread = expanded();
    items.forEach((item, index) => {
      let s = shown.get(item.id);
      if (!s) {
        s = { card: buildCard(item), remaining: toastDuration(item), startedAt: 0 };
        shown.set(item.id, s);
      }
      // Newest first; appending an element already in the list moves it.
      if (list.children[index] !== s.card) list.insertBefore(s.card, list.children[index] ?? null);
      s.card.classList.toggle('hidden', !spread && index >= STACKED_VISIBLE);
      Object.assign(s.card.style, spread
        ? { marginTop: '', transform: '', zIndex: '' }
        : { marginTop: index === 0 ? '0px' : '-3.25rem', transform: `scale(${1 - index * 0.05})`, zIndex: String(10 - index) });
      if (spread) stop(s);
      else run(item.id, s);
    });
  };
  // Removing a focused card fires its blur (and so a render) in the middle of drawing: that one
  // waits, and the drawing runs again once it is done.
  let drawing = false;
  let again = false;
  const render = () => {
    if (drawing) {
      again = true;
      return;
    }
    drawing = true;
    try {
      do {
        again = false;
        draw();
      } while (again);
    } finally {
      drawing = false;
    }
  };

  const setHovered = (value: boolean) => {
    hovered = value;
    render();
  };
  const onEnter = () => setHovered(true);
  const onLeave = () => setHovered(false);
  const onFocusIn = () => {
    focused = true;
    render();
  };
  const onFocusOut = (e: FocusEvent) => {
    if (list.contains(e.relatedTarget as Node | null)) return;
    focused = false;
    render();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    if (e.target instanceof Node && list.contains(e.target)) return; // the focused toast closes itself
    if (document.querySelector('dialog[open]')) return;
    const newest = toastItems()[0];
    if (newest) dismissToast(newest.id);
  };

  list.addEventListener('mouseenter', onEnter);
  list.addEventListener('mouseleave', onLeave);
  list.addEventListener('focusin', onFocusIn);
  list.addEventListener('focusout', onFocusOut);
  window.addEventListener('keydown', onKey);
  const unsubscribe = subscribeToasts(render);
  render();
  return () => {
    unsubscribe();
    list.removeEventListener('mouseenter', onEnter);
    list.removeEventListener('mouseleave', onLeave);
    list.removeEventListener('focusin', onFocusIn);
    list.removeEventListener('focusout', onFocusOut);
    window.removeEventListener('keydown', onKey);
    for (const s of shown.values()) {
      stop(s);
      s.card.remove();
    }
    shown.clear();
  };
}
