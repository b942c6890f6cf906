// The content pages' notifications (React's <Toaster> draws them on hydrated pages). Each toast is a
// copy of the server-rendered <template> of its variant, filled with its texts; it goes after 5 s,
// on its close button, or on Escape (the focused one, else the newest).

import { dismissToast, subscribeToasts, toastItems, TOAST_DURATION_MS } from '../components/ui/toast-store.ts';

export function enhanceToaster(list: HTMLElement): () => void {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const shown = new Map<number, HTMLElement>();

  const render = () => {
    const items = toastItems();
    const live = new Set(items.map((t) => t.id));
    for (const [id, el] of shown) {
      if (live.has(id)) continue;
      el.remove();
      shown.delete(id);
      clearTimeout(timers.get(id));
      timers.delete(id);
    }
    for (const item of [...items].reverse()) {
      if (shown.has(item.id)) continue;
      const template = document.querySelector<HTMLTemplateElement>(`template[data-toast="${item.variant ?? 'default'}"]`);
      const card = template?.content.firstElementChild?.cloneNode(true);
      if (!(card instanceof HTMLElement)) continue;
      card.querySelector('[data-title]')!.textContent = item.title;
      const description = card.querySelector('[data-description]');
      if (description) description.textContent = item.description ?? '';
      card.querySelector('button')?.addEventListener('click', () => dismissToast(item.id));
      card.addEventListener('keydown', (e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          dismissToast(item.id);
        }
      });
      list.prepend(card);
      shown.set(item.id, card);
      timers.set(item.id, setTimeout(() => dismissToast(item.id), TOAST_DURATION_MS));
    }
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    if (e.target instanceof Node && list.contains(e.target)) return;
    if (document.querySelector('dialog[open]')) return;
    const newest = toastItems()[0];
    if (newest) dismissToast(newest.id);
  };
  const unsubscribe = subscribeToasts(render);
  window.addEventListener('keydown', onKey);
  render();
  return () => {
    unsubscribe();
    window.removeEventListener('keydown', onKey);
    timers.forEach((t) => clearTimeout(t));
  };
}
