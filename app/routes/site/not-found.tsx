import { data, Link } from 'react-router';
import type { Route } from './+types/not-found';
import { PATHS } from '../../../common/paths.ts';
import { NO_HYDRATION } from '../../lib/hydration.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  // Debug, not warn: the request line already records the 404 (decision 164).
  const logger = (context as { logger?: { debug: (obj: object, msg: string) => void } } | undefined)?.logger;
  logger?.debug({ path }, 'page not found');
  return data({ path }, { status: 404 });
}

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

export const meta = () => [{ title: 'Page not found' }, { name: 'robots', content: 'noindex' }];

export default function NotFoundPage() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-700 dark:text-sky-300">404</p>
      <h1 className="mt-4 text-2xl font-semibold">Oops! Page not found</h1>
      <Link to={PATHS.home} className="mt-6 inline-block rounded-md bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800">
        Return to Home
      </Link>
    </div>
  );
}
