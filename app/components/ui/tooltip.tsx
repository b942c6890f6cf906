import { cloneElement, useEffect, useId, useRef, useState, type ReactElement } from 'react';

export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// When one tooltip closed less than the skip delay ago, the next opens at once (moving along a toolbar).
let lastClosedAt = 0;

type TriggerProps = {
  'aria-describedby'?: string;
  onPointerEnter?: () => void;
  onPointerLeave?: () => void;
  onFocus?: () => void;
  onBlur?: () => void;
};

/** A text hint for its one child: opens after 700 ms of hover or on focus; closes on leave, scroll or Escape. */
export function Tooltip({ content, children }: { content: string; children: ReactElement<TriggerProps> }) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const id = useId();

  const show = () => {
    clearTimeout(timer.current);
    const skip = Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS;
    timer.current = setTimeout(() => setOpen(true), skip ? 0 : TOOLTIP_OPEN_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen((wasOpen) => {
      if (wasOpen) lastClosedAt = Date.now();
      return false;
    });
  };

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && hide();
    window.addEventListener('keydown', onKey);
    window.addEventListener('scroll', hide, { passive: true, capture: true });
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', hide, { capture: true });
    };
  }, [open]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <span className="relative inline-flex">
      {cloneElement(children, {
        'aria-describedby': open ? id : undefined,
        onPointerEnter: show,
        onPointerLeave: hide,
        onFocus: show,
        onBlur: hide,
      })}
      {open ? (
        <span
          role="tooltip"
          id={id}
          className="absolute top-full left-1/2 z-50 mt-2 -translate-x-1/2 rounded bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white shadow dark:bg-slate-100 dark:text-slate-900"
        >
          {content}
        </span>
      ) : null}
    </span>
  );
}
