import type { Ref } from 'react';
import { HONEYPOT_FIELD } from '../../../common/form-guard.ts';

/**
 * A field people never see, hear or reach with the keyboard; bots that fill in every field fill it
 * in too, and the server then quietly drops their submission.
 */
export function HoneypotField({ inputRef }: { inputRef: Ref<HTMLInputElement> }) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label>
        Leave this field empty
        <input ref={inputRef} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
