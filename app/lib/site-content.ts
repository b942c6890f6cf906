import { useRouteLoaderData } from 'react-router';
import type { SectionDocument, SectionKey } from '../../common/content/sections.ts';
import type { MediaPicture } from '../../common/schemas/media.ts';
import { SITE_CONTENT_CONTEXT_KEY, type SiteContentReader, type SitePreview } from '../../common/site-content-context.ts';

// Decision 289: pages read the website's content from the load context (the published snapshot the
// server holds in memory, or a preview's draft), never from common/content (the starting content).

/** The content reader of a loader's context; a render without one is a bug of the server, not the page. */
export function siteContentFrom(context: unknown): SiteContentReader {
  const reader = (context as Record<string, unknown> | undefined)?.[SITE_CONTENT_CONTEXT_KEY] as SiteContentReader | undefined;
  if (!reader) throw new Error('The page was rendered without the site content in its load context');
  return reader;
}

/** The named sections' documents, as one object a loader returns: `contentOf(context, ['team', 'about'])`. */
export function contentOf<const S extends readonly SectionKey[]>(context: unknown, sections: S): { [K in S[number]]: SectionDocument<K> } {
  const reader = siteContentFrom(context);
  return Object.fromEntries(sections.map((s) => [s, reader.get(s)])) as { [K in S[number]]: SectionDocument<K> };
}

/** What the root loader gives every page: the chrome's sections, the media the content names and whether it is a preview. */
export interface RootContent {
  company: SectionDocument<'company'>;
  footer: SectionDocument<'footer'>;
  media: Record<string, MediaPicture>;
  preview: SitePreview | null;
}

const ROOT_ROUTE_ID = 'root';

/** The root loader's data (app/root.tsx). */
export function rootContentOf(context: unknown): RootContent {
  const reader = siteContentFrom(context);
  return { company: reader.get('company'), footer: reader.get('footer'), media: reader.media(), preview: reader.preview };
}

function useRootContent(): RootContent {
  const data = useRouteLoaderData(ROOT_ROUTE_ID) as RootContent | undefined;
  if (!data) throw new Error('The root loader data is missing');
  return data;
}

/** A section the root loader carries (the company profile and the footer), for components of the chrome. */
export function useSection<K extends 'company' | 'footer'>(section: K): RootContent[K] {
  return useRootContent()[section];
}

/** The media items the content names, by reference (`media/<uuid>`). */
export function useSiteMedia(): Record<string, MediaPicture> {
  return useRootContent().media;
}

/** The section shown as its draft, when the page is a preview (null too where the root loader did not answer: an error page). */
export function usePreview(): SitePreview | null {
  return (useRouteLoaderData(ROOT_ROUTE_ID) as RootContent | undefined)?.preview ?? null;
}

/** A meta function's matches, as far as companyOfMatches reads them (Route.MetaArgs would type them by the module itself: a cycle). */
export type MetaMatches = readonly ({ id: string; data?: unknown; loaderData?: unknown } | undefined)[];

/** The company profile from a meta function's matches (the root loader's data). */
export function companyOfMatches(matches: MetaMatches): SectionDocument<'company'> {
  const root = matches.find((m) => m?.id === ROOT_ROUTE_ID);
  const data = (root?.loaderData ?? root?.data) as RootContent | undefined;
  if (!data) throw new Error('The root loader data is missing');
  return data.company;
}
