// The notifications waiting to be shown, in plain TypeScript: the React <Toaster> (hydrated pages)
// and the content pages' toaster module (app/enhance/toaster.ts) both draw from it.

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
  /** One button in the toast (such as 'Undo'); choosing it closes the toast. */
  action?: { label: string; onSelect: () => void };
  /** How long the toast stays, when not TOAST_DURATION_MS (an Undo stays as long as it can undo). */
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
  items = items.filter((t) => t.id !== id);
  emit();
}

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
