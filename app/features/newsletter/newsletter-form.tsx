import { useId } from 'react';

/** The footer's newsletter box: an e-mail input and a Subscribe button. */
export function NewsletterForm() {
  const id = useId();
  return (
    <form className="flex flex-col gap-2 sm:flex-row" onSubmit={(e) => e.preventDefault()}>
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
      <button type="submit" className="min-h-11 rounded-md bg-accent-500 px-4 text-sm font-semibold text-slate-950 hover:bg-amber-400">
        Subscribe
      </button>
    </form>
  );
}
