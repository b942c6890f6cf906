import { useId } from 'react';
import { HoneypotField } from '../../components/forms/honeypot-field.tsx';
import { enhanceNewsletterForm } from '../../enhance/newsletter-form.ts';
import { useEnhance } from '../../lib/use-enhance.ts';
import { NEWSLETTER_BACK_FIELD } from '../../../common/newsletter.ts';
import { PATHS } from '../../../common/paths.ts';

/**
 * The footer's newsletter box: markup only (data-module="newsletter-form"). Without JavaScript it
 * posts to the newsletter page, which answers with a page; app/enhance/newsletter-form.ts subscribes
 * in place with double opt-in and says what happened.
 */
export function NewsletterForm({ from }: { from?: string } = {}) {
  const id = useId();
  const ref = useEnhance<HTMLFormElement>(enhanceNewsletterForm);
  return (
    <form ref={ref} method="post" action={PATHS.newsletterSubscribe} data-module="newsletter-form" className="relative" aria-describedby={`${id}-status`}>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          Email address
        </label>
        <input
          id={id}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="Your email address"
          className="min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 text-sm text-white placeholder:text-slate-400"
        />
        <button
          type="submit"
          className="min-h-11 shrink-0 rounded-md bg-accent-500 px-4 text-sm font-semibold text-slate-950 hover:bg-amber-400 disabled:cursor-wait disabled:opacity-70"
        >
          Subscribe
        </button>
      </div>
      <HoneypotField inputRef={null} />
      {/* The answer page's own box: a second try still leads back to the page the visitor came from. */}
      {from ? <input type="hidden" name={NEWSLETTER_BACK_FIELD} value={from} /> : null}
      <p id={`${id}-status`} role="status" className="mt-2 text-sm text-emerald-300" />
    </form>
  );
}
