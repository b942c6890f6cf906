import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { X } from 'lucide-react';
import { clsx } from 'clsx';

import { dismissToast, subscribeToasts, toastItems, TOAST_DURATION_MS, type ToastItem } from './toast-store.ts';

export { scopedToasts, toast } from './toast-store.ts';

const EMPTY: ToastItem[] = [];
const CARD_CLASS = 'pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg transition-all duration-200';
const DESTRUCTIVE_CLASS = 'border-red-700 bg-red-700 text-white';
const DEFAULT_CLASS = 'border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

function ToastCard({ item, index, expanded, paused }: { item: ToastItem; index: number; expanded: boolean; paused: boolean }) {
  const remaining = useRef(item.durationMs ?? TOAST_DURATION_MS);
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(item.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [paused, item.id]);
  const destructive = item.variant === 'destructive';
  const hidden = !expanded && index > 2;
  return (
    <li
      tabIndex={0}
      data-variant={item.variant ?? 'default'}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault(); // handled: the stack's own Escape (the newest toast) leaves it alone
          dismissToast(item.id);
        }
      }}
      className={clsx(
        CARD_CLASS,
        destructive ? DESTRUCTIVE_CLASS : DEFAULT_CLASS,
        hidden && 'hidden',
      )}
      style={expanded ? undefined : { marginTop: index === 0 ? 0 : '-3.25rem', transform: `scale(${1 - index * 0.05})`, zIndex: 10 - index }}
    >
      {/* The live region sits inside the item: a list may only hold plain list items (axe 'list'). */}
      <div className="grid gap-1" role={destructive ? 'alert' : 'status'} aria-atomic="true">
        <p className="text-sm font-semibold">{item.title}</p>
        {item.description ? <p className="text-sm opacity-90">{item.description}</p> : null}
        {item.action ? (
          <button
            type="button"
            onClick={() => {
              dismissToast(item.id);
              item.action?.onSelect();
            }}
            className="mt-1 min-h-11 justify-self-start rounded-md border border-current px-3 py-1 text-sm font-semibold hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            {item.action.label}
          </button>
        ) : null}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(item.id)}
        className="absolute top-2 right-2 rounded p-1 opacity-80 hover:opacity-100"
        aria-label="Close notification"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </li>
  );
}

/**
 * The stack of notifications: collapsed, expanding on hover or focus. Escape closes the focused one,
 * or, with the keyboard elsewhere, the newest one (unless a dialog is open: Escape closes that first).
 */
export function Toaster() {
  const list = useSyncExternalStore(subscribeToasts, toastItems, () => EMPTY);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const stack = useRef<HTMLOListElement>(null);
  const expanded = hovered || focused;
  const open = list.length > 0;
  // A focused toast that closes takes the focus with it without a blur event: the others must not stay paused.
  useEffect(() => {
    if (focused && !stack.current?.contains(document.activeElement)) setFocused(false);
  }, [list, focused]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (e.target instanceof Node && stack.current?.contains(e.target)) return; // the focused toast closes itself
      if (document.querySelector('dialog[open]')) return;
      const newest = toastItems()[0];
      if (newest) dismissToast(newest.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <section aria-label="Notifications" className="pointer-events-none fixed top-16 right-0 z-[100] w-full max-w-sm p-4">
      <ol
        ref={stack}
        data-module="toaster"
        className="flex flex-col gap-2"
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        onFocus={() => setFocused(true)}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
        }}
      >
        {list.map((item, index) => (
          <ToastCard key={item.id} item={item} index={index} expanded={expanded} paused={expanded} />
        ))}
      </ol>
    </section>
  );
}

/**
 * The cards the content pages' toaster module (app/enhance/toaster.ts) copies, with the markup of
 * ToastCard. Rendered only on pages React does not hydrate (root layout): React would build a
 * template's children as real nodes on the client, which would not match the server's HTML.
 */
export function ToastTemplates() {
  return (
    <>
      {(['default', 'destructive'] as const).map((variant) => (
        <template key={variant} data-toast={variant}>
          <li tabIndex={0} data-variant={variant} className={clsx(CARD_CLASS, variant === 'destructive' ? DESTRUCTIVE_CLASS : DEFAULT_CLASS)}>
            <div className="grid gap-1" role={variant === 'destructive' ? 'alert' : 'status'} aria-atomic="true">
              <p className="text-sm font-semibold" data-title />
              <p className="text-sm opacity-90" data-description />
            </div>
            <button type="button" className="absolute top-2 right-2 rounded p-1 opacity-80 hover:opacity-100" aria-label="Close notification">
              <X className="size-4" aria-hidden="true" />
            </button>
          </li>
        </template>
      ))}
    </>
  );
}
