// What the three carousels share (WAI-ARIA carousel pattern), in plain TypeScript: a position that
// advances on a timer which restarts whenever the position changes; hover and keyboard focus inside
// pause it; the play/pause button (data-carousel-toggle) stops and restarts it; visitors who prefer
// reduced motion get no automatic rotation; and the dots (data-carousel-dot) mark the current one.

export interface Rotation {
  /** Shows position i (wrapping around); the timer starts over. */
  show(i: number): void;
  readonly index: number;
  stop(): void;
}

export interface RotationOptions {
  root: HTMLElement;
  count: () => number;
  intervalMs: number;
  /** Puts position `index` on screen (attributes and classes only). */
  render: (index: number) => void;
  /** The element whose aria-live turns polite when nothing moves by itself. */
  live?: HTMLElement | null;
}

export function createRotation({ root, count, intervalMs, render, live }: RotationOptions): Rotation {
  const toggle = root.querySelector<HTMLElement>('[data-carousel-toggle]');
  const what = toggle?.dataset.what ?? 'carousel';
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
  let index = 0;
  let playing = true;
  let hovered = false;
  let focused = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const autoplay = () => playing && !reduced.matches;
  const schedule = () => {
    clearTimeout(timer);
    if (autoplay() && !hovered && !focused) timer = setTimeout(() => show(index + 1), intervalMs);
  };
  const sync = () => {
    const on = autoplay();
    if (toggle) {
      toggle.dataset.playing = String(on);
      toggle.setAttribute('aria-label', `${on ? 'Pause' : 'Play'} ${what}`);
    }
    live?.setAttribute('aria-live', on ? 'off' : 'polite');
  };
  function show(i: number) {
    const n = count();
    index = ((i % n) + n) % n;
    render(index);
    schedule();
  }

  const onEnter = () => {
    hovered = true;
    schedule();
  };
  const onLeave = () => {
    hovered = false;
    schedule();
  };
  const onFocusIn = (e: FocusEvent) => {
    const el = e.target as HTMLElement;
    focused = el.matches(':focus-visible') && !el.closest('[data-carousel-toggle]');
    schedule();
  };
  const onFocusOut = (e: FocusEvent) => {
    if (!(e.relatedTarget instanceof Node) || !root.contains(e.relatedTarget)) {
      focused = false;
      schedule();
    }
  };
  const onToggle = () => {
    playing = !autoplay();
    sync();
    schedule();
  };
  const onMotion = () => {
    sync();
    schedule();
  };
  // Each listener once, so stop() removes exactly what was added.
  const listeners = [
    [root, { mouseenter: onEnter, mouseleave: onLeave, focusin: onFocusIn, focusout: onFocusOut }],
    [toggle, { click: onToggle }],
    [reduced, { change: onMotion }],
  ] as const;
  for (const [target, events] of listeners) for (const [type, fn] of Object.entries(events)) target?.addEventListener(type, fn as EventListener);
  sync();
  schedule();
  root.dataset.ready = 'true';

  return {
    show,
    get index() {
      return index;
    },
    stop() {
      clearTimeout(timer);
      for (const [target, events] of listeners) for (const [type, fn] of Object.entries(events)) target?.removeEventListener(type, fn as EventListener);
    },
  };
}

/** Marks dot i of a dot list current (aria-current); the dot's look follows by CSS. */
export function markDot(dots: ParentNode, i: number) {
  dots.querySelectorAll<HTMLElement>('[data-carousel-dot]').forEach((d, j) => {
    if (j === i) d.setAttribute('aria-current', 'true');
    else d.removeAttribute('aria-current');
  });
}

/**
 * Wires a carousel's dots (`data-carousel-dot="i"`) and arrows (`data-carousel-arrow="next|previous"`)
 * under root to the rotation, by one delegated click listener; returns what undoes it.
 */
export function onCarouselControls(root: HTMLElement, rotation: Rotation): () => void {
  const onClick = (e: MouseEvent) => {
    const target = e.target as Element;
    const dot = target.closest<HTMLElement>('[data-carousel-dot]');
    const arrow = target.closest<HTMLElement>('[data-carousel-arrow]');
    if (dot) rotation.show(Number(dot.dataset.carouselDot));
    else if (arrow) rotation.show(rotation.index + (arrow.dataset.carouselArrow === 'next' ? 1 : -1));
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}

/** Calls onNext for a leftward swipe and onPrevious for a rightward one longer than thresholdPx. */
export function onSwipe(el: HTMLElement, thresholdPx: number, onNext: () => void, onPrevious: () => void, enabled: () => boolean = () => true) {
  let start: { x: number; y: number } | null = null;
  const down = (e: TouchEvent) => {
    const t = e.touches[0];
    start = enabled() && t ? { x: t.clientX, y: t.clientY } : null;
  };
  const up = (e: TouchEvent) => {
    const from = start;
    start = null;
    const t = e.changedTouches[0];
    if (!from || !t) return;
    const dx = t.clientX - from.x;
    const dy = t.clientY - from.y;
    if (Math.abs(dx) <= thresholdPx || Math.abs(dx) < Math.abs(dy)) return;
    if (dx < 0) onNext();
    else onPrevious();
  };
  el.addEventListener('touchstart', down, { passive: true });
  el.addEventListener('touchend', up);
  return () => {
    el.removeEventListener('touchstart', down);
    el.removeEventListener('touchend', up);
  };
}
