import { CheckCircle2, CircleAlert } from 'lucide-react';
import { data, Link } from 'react-router';
import type { Route } from './+types/newsletter-subscribe';
import { NEWSLETTER_FORM_CONTEXT_KEY, NEWSLETTER_FORM_TEXT, type NewsletterFormAnswer } from '../../../common/newsletter.ts';
import { PATHS } from '../../../common/paths.ts';
import { NewsletterForm } from '../../features/newsletter/newsletter-form.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches } from '../../lib/site-content.ts';

// Decision 176: where the footer's newsletter box posts without JavaScript. The server
// (server/modules/newsletter/newsletter-form.routes.ts) subscribes and hands its answer to this
// page in the load context; opened directly, the page offers the box on its own.

export function loader({ context }: Route.LoaderArgs) {
  const answer = (context as Record<string, unknown> | undefined)?.[NEWSLETTER_FORM_CONTEXT_KEY] as NewsletterFormAnswer | undefined;
  if (!answer) return data({ answer: null });
  return data({ answer }, { status: answer.status });
}

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

export const meta = ({ loaderData, matches }: Omit<Route.MetaArgs, 'matches'> & { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), {
    // A refused post says so first in the title, the first thing a screen reader reads on the new page.
    title: loaderData?.answer && !loaderData.answer.ok ? `Error: ${NEWSLETTER_FORM_TEXT.title}` : NEWSLETTER_FORM_TEXT.title,
    description: NEWSLETTER_FORM_TEXT.intro,
    path: PATHS.newsletterSubscribe,
    noindex: true,
  });

/** The box as the footer shows it, on the page's own dark panel. */
function SubscribeBox({ from }: { from?: string }) {
  return (
    <div className="mt-8 w-full rounded-xl bg-slate-950 p-6 text-left text-slate-300">
      <p className="mb-3 text-sm">{NEWSLETTER_FORM_TEXT.intro}</p>
      <NewsletterForm from={from} />
    </div>
  );
}

export default function NewsletterSubscribePage({ loaderData }: Route.ComponentProps) {
  const { answer } = loaderData;
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      {answer?.ok ? (
        <CheckCircle2 className="size-14 text-emerald-700 dark:text-emerald-400" aria-hidden="true" />
      ) : answer ? (
        <CircleAlert className="size-14 text-red-700 dark:text-red-400" aria-hidden="true" />
      ) : null}
      <h1 className="mt-6 text-3xl font-bold">{NEWSLETTER_FORM_TEXT.title}</h1>
      {answer ? (
        <p role={answer.ok ? 'status' : 'alert'} className="mt-4 text-lg text-slate-700 dark:text-slate-300">
          {answer.message}
        </p>
      ) : null}
      {answer?.ok ? null : <SubscribeBox from={answer?.back} />}
      <Link
        to={answer?.back ?? PATHS.home}
        className="mt-8 inline-flex min-h-11 items-center rounded-md bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800 dark:bg-sky-300 dark:text-slate-950 dark:hover:bg-sky-200"
      >
        {answer ? NEWSLETTER_FORM_TEXT.back : 'Return to Home'}
      </Link>
    </div>
  );
}
