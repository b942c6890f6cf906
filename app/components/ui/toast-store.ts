// The notifications waiting to be shown, in plain TypeScript. One renderer draws them on every page
// (app/enhance/toaster.ts: the content pages' script and the React root both mount it; decision 232).

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /**
   * The form (or action) the message is about. A message belongs to one attempt: a new toast of the
   * same scope replaces the earlier ones, and a new attempt clears them (`clearToasts`), so 'Please
   * enter your name' never stays under 'Message Sent Successfully!'.
   */
  scope?: string;
  /** A button in the card (such as 'Undo'): selecting it runs `onSelect`, then the toast goes. */
  action?: { label: string; onSelect: () => void };
  /** How long the toast stays while nobody hovers or focuses the stack (default TOAST_DURATION_MS). */
  durationMs?: number;
}
export interface ToastItem extends ToastInput {
  id: number;
}

export const TOAST_DURATION_MS = 5000;
const TOAST_LIMIT = 5;

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows a notification; failures use variant 'destructive'. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  const kept = input.scope ? items.filter((t) => t.scope !== input.scope) : items;
  items = [{ ...input, id }, ...kept].slice(0, TOAST_LIMIT);
  emit();
  return id;
}

export function dismissToast(id: number) {
  if (!items.some((t) => t.id === id)) return;
  items = items.filter((t) => t.id !== id);
  emit();
}

/** The toast's action was chosen: it runs once, and the toast goes (a gone toast runs nothing). */
export function selectToastAction(id: number) {
  const item = items.find((t) => t.id === id);
  if (!item) return;
  dismissToast(id);
  item.action?.onSelect();
}

/** How long a toast stays on screen, unpaused. */
export const toastDuration = (item: ToastInput) => item.durationMs ?? TOAST_DURATION_MS;

/** Removes the messages of an earlier attempt (a form's submit calls it before it starts). */
function clearToasts(scope: string) {
  if (!items.some((t) => t.scope === scope)) return;
  items = items.filter((t) => t.scope !== scope);
  emit();
}

/** A form's own toasts: each shown one replaces the form's earlier ones; `clear` at each new attempt. */
export function scopedToasts(scope: string) {
  return { show: (input: ToastInput) => toast({ ...input, scope }), clear: () => clearToasts(scope) };
}

export const toastItems = () => items;

export function subscribeToasts(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
