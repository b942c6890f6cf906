// The notifications waiting to be shown, in plain TypeScript: the React <Toaster> (hydrated pages)
// and the content pages' toaster module (app/enhance/toaster.ts) both draw from it.

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
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
  items = [{ ...input, id }, ...items].slice(0, TOAST_LIMIT);
  emit();
  return id;
}

export function dismissToast(id: number) {
  items = items.filter((t) => t.id !== id);
  emit();
}

export const toastItems = () => items;

export function subscribeToasts(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
