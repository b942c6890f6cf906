import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, useLocation, useRouteError } from 'react-router';
import type { LinksFunction } from 'react-router';
import type { Route } from './+types/root';
import type { ReactNode } from 'react';
import './app.css';
import { SiteHeader } from './components/layout/site-header.tsx';
import { SiteFooter } from './components/layout/site-footer.tsx';
import { ScrollToTop } from './components/layout/scroll-to-top.tsx';
import { Toaster } from './components/ui/toast.tsx';
import { chromeFor, PATHS } from '../common/paths.ts';
import { ChatButton } from './features/chat/chat-button.tsx';
import { THEME_BOOT_SCRIPT } from './lib/theme.ts';
import { useHydratedRoute } from './lib/hydration.ts';
import { useCspNonce } from './lib/csp-nonce.ts';
import { SPECULATION_RULES } from './lib/speculation-rules.ts';
import { rootContentOf, usePreview } from './lib/site-content.ts';
import { PreviewBanner } from './features/site/preview-banner.tsx';
// Built by Vite as its own small ES module bundle (with its own lazy chunks, e.g. the chat panel).
import enhanceEntryUrl from './enhance/entry.ts?worker&url';

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
];

/**
 * Decision 289: every page gets the chrome's content (company profile, footer), the media the
 * content names, and whether it is a preview, from the snapshot in the load context.
 */
export function loader({ context }: Route.LoaderArgs) {
  return rootContentOf(context);
}

// The chrome's content changes only with a publish; a signed-in screen's navigations need not ask again.
export const shouldRevalidate = () => false;

export function Layout({ children }: { children: ReactNode }) {
  // Decision 140: content pages are HTML plus the enhancement modules; the rest hydrate as before.
  // A preview is never hydrated: its address (/preview/...) is no route of the browser's router.
  const preview = usePreview();
  const hydrate = useHydratedRoute() && !preview;
  // Decision 170: every script written here carries the answer's nonce (undefined in the browser,
  // which hides it after parsing: hence no hydration warning on the theme script).
  const nonce = useCspNonce();
  return (
    <html lang="en-NG" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#083b6d" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {hydrate ? (
          <Scripts nonce={nonce} />
        ) : (
          <>
            <script type="module" nonce={nonce} src={enhanceEntryUrl} />
            <script type="speculationrules" nonce={nonce} dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
          </>
        )}
      </body>
    </html>
  );
}

function Chrome({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const chrome = chromeFor(pathname);
  const preview = usePreview();
  return (
    <>
      {preview ? <PreviewBanner title={preview.title} /> : null}
      {chrome.header ? <SiteHeader /> : null}
      <main id="main" className={chrome.header ? 'min-h-[70vh] pt-16' : 'min-h-screen'}>
        {children}
      </main>
      {chrome.footer ? <SiteFooter /> : null}
      {chrome.chat ? <ChatButton /> : null}
      <ScrollToTop />
      <Toaster />
    </>
  );
}

export default function App() {
  return (
    <Chrome>
      <Outlet />
    </Chrome>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText || ''}`.trim()
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <Chrome>
      <title>Unexpected Application Error!</title>
      <div className="mx-auto max-w-2xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold">Unexpected Application Error!</h1>
        <p className="mt-4 font-mono text-lg text-slate-700 dark:text-slate-300">{detail}</p>
        <Link to={PATHS.home} className="mt-8 inline-block rounded-md bg-brand-700 px-4 py-3 font-semibold text-white">
          Return to Home
        </Link>
      </div>
    </Chrome>
  );
}
