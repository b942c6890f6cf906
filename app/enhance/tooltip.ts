// A text hint for one trigger, in plain TypeScript (no React: it runs on the pre-rendered pages):
// opens after 700 ms of hover or on focus, at once within 300 ms of another closing; closes on
// leave, blur, Escape and scroll.

const TOOLTIP_OPEN_DELAY_MS = 700;
const TOOLTIP_SKIP_DELAY_MS = 300;

let lastClosedAt = 0;
let nextId = 1;

/** Attaches a tooltip whose text `text()` gives when it opens; returns what undoes it. */
export function attachTooltip(trigger: HTMLElement, text: () => string): () => void {
  const id = `tooltip-${nextId++}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let bubble: HTMLElement | null = null;
  const wrapper = trigger.parentElement;

  const open = () => {
    if (bubble || !wrapper) return;
    bubble = document.createElement('span');
    bubble.id = id;
    bubble.setAttribute('role', 'tooltip');
    bubble.className =
      'absolute top-full left-1/2 z-50 mt-2 -translate-x-1/2 rounded bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white shadow dark:bg-slate-100 dark:text-slate-900';
    bubble.textContent = text();
    wrapper.append(bubble);
    trigger.setAttribute('aria-describedby', id);
    window.addEventListener('keydown', onKey);
    window.addEventListener('scroll', hide, { passive: true, capture: true });
  };
  const show = () => {
    clearTimeout(timer);
    const skip = Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS;
    timer = setTimeout(open, skip ? 0 : TOOLTIP_OPEN_DELAY_MS);
  };
  function hide() {
    clearTimeout(timer);
    if (!bubble) return;
    bubble.remove();
    bubble = null;
    lastClosedAt = Date.now();
    trigger.removeAttribute('aria-describedby');
    window.removeEventListener('keydown', onKey);
    window.removeEventListener('scroll', hide, { capture: true });
  }
  function onKey(e: KeyboardEvent) {
    if (e.key === 'Escape') hide();
  }
  trigger.addEventListener('pointerenter', show);
  trigger.addEventListener('pointerleave', hide);
  trigger.addEventListener('focus', show);
  trigger.addEventListener('blur', hide);
  return () => {
    hide();
    trigger.removeEventListener('pointerenter', show);
    trigger.removeEventListener('pointerleave', hide);
    trigger.removeEventListener('focus', show);
    trigger.removeEventListener('blur', hide);
  };
}
