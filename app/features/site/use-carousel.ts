import { useCallback, useEffect, useRef, useSyncExternalStore, type FocusEvent, type TouchEvent } from 'react';

/** Whether a media query matches; false while server-rendering and hydrating. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export function usePrefersReducedMotion() {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}

/**
 * Calls `advance` after `intervalMs` while `running`. The timer restarts whenever `position`
 * changes, so a slide chosen by hand gets its full time on screen.
 */
export function useAutoAdvance(intervalMs: number, running: boolean, position: number, advance: () => void) {
  const latest = useRef(advance);
  useEffect(() => {
    latest.current = advance;
  });
  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(() => latest.current(), intervalMs);
    return () => window.clearTimeout(timer);
  }, [intervalMs, running, position]);
}

/**
 * Touch handlers that call onNext for a leftward swipe and onPrevious for a rightward one, when the
 * finger travelled more than `thresholdPx` horizontally (and more horizontally than vertically, so
 * scrolling the page is not a swipe).
 */
export function useSwipe({ thresholdPx, onNext, onPrevious, enabled = true }: { thresholdPx: number; onNext: () => void; onPrevious: () => void; enabled?: boolean }) {
  const start = useRef<{ x: number; y: number } | null>(null);
  return {
    onTouchStart(e: TouchEvent) {
      const t = e.touches[0];
      start.current = enabled && t ? { x: t.clientX, y: t.clientY } : null;
    },
    onTouchEnd(e: TouchEvent) {
      const from = start.current;
      start.current = null;
      const t = e.changedTouches[0];
      if (!from || !t) return;
      const dx = t.clientX - from.x;
      const dy = t.clientY - from.y;
      if (Math.abs(dx) <= thresholdPx || Math.abs(dx) < Math.abs(dy)) return;
      if (dx < 0) onNext();
      else onPrevious();
    },
  };
}

/**
 * Focus handlers for a carousel: keyboard focus on anything inside it except its play/pause button
 * (marked data-carousel-toggle) pauses it until focus leaves. Mouse clicks do not count: hovering
 * already pauses.
 */
export function pauseOnKeyboardFocus(setPaused: (paused: boolean) => void) {
  return {
    onFocus(e: FocusEvent<HTMLElement>) {
      const el = e.target;
      setPaused(el.matches(':focus-visible') && !el.closest('[data-carousel-toggle]'));
    },
    onBlur(e: FocusEvent<HTMLElement>) {
      if (!(e.relatedTarget instanceof Node) || !e.currentTarget.contains(e.relatedTarget)) setPaused(false);
    },
  };
}

/** Marks the element data-ready once hydrated, so tests know the timers run before they drive a clock. */
export function useReadyMarker<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (ref.current) ref.current.dataset.ready = 'true';
  }, []);
  return ref;
}
