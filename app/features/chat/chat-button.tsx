import { useEffect, useRef } from 'react';
import { useSection } from '../../lib/site-content.ts';
import { CHAT_BUTTON_LABEL, enhanceChatButton } from './chat-button-module.ts';

/**
 * The floating support-chat button. Its markup works without React too (data-module="chat-button",
 * enhanced by chat-button.ts); React only places it and calls the same enhancer. The company's name,
 * phone and e-mail the panel writes are the published ones (decision 289), carried by the button's
 * data attributes, so the panel (plain DOM, loaded later) needs no content of its own.
 */
export function ChatButton() {
  const ref = useRef<HTMLButtonElement>(null);
  const company = useSection('company');
  useEffect(() => (ref.current ? enhanceChatButton(ref.current) : undefined), []);
  return (
    <button
      ref={ref}
      type="button"
      data-module="chat-button"
      aria-label={CHAT_BUTTON_LABEL}
      aria-expanded="false"
      data-company={company.shortName}
      data-phone={company.phone}
      data-email={company.email}
      className="fixed right-4 bottom-4 z-50 grid size-14 place-items-center rounded-full bg-brand-700 text-white shadow-lg hover:bg-brand-800 print:hidden"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12Z" />
        <path d="M8.5 11h.01M12 11h.01M15.5 11h.01" />
      </svg>
    </button>
  );
}
