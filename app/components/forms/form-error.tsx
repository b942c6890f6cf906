import { useEffect, useId, useRef, useState } from 'react';

/**
 * A failure shown inside the form (the toast disappears; this stays until the next try, or until a
 * field of the form changes: then it no longer describes what the form holds).
 */
export function FormError({ message: givenMessage }: { message: string | null }) {
  const id = useId();
  const current = useRef(givenMessage);
  current.current = givenMessage;
  // The message the visitor has since edited away; a new message (or a new submit) shows again.
  const [editedAway, setEditedAway] = useState<string | null>(null);
  useEffect(() => {
    const form = document.getElementById(id)?.closest('form');
    if (!form) return;
    const onInput = () => setEditedAway(current.current);
    const onSubmit = () => setEditedAway(null);
    form.addEventListener('input', onInput);
    form.addEventListener('submit', onSubmit);
    return () => {
      form.removeEventListener('input', onInput);
      form.removeEventListener('submit', onSubmit);
    };
  }, [id]);
  const message = givenMessage !== null && givenMessage === editedAway ? null : givenMessage;
  return (
    <div
      id={id}
      role="alert"
      aria-live="assertive"
      className={
        message
          ? 'rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200'
          : 'sr-only'
      }
    >
      {message}
    </div>
  );
}
