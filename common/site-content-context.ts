import type { SectionDocument, SectionKey } from './content/sections.ts';
import type { MediaPicture } from './schemas/media.ts';

/**
 * Decision 289: the load-context key under which the server hands a page render the website's
 * content: the published snapshot of this process (server/modules/site-content/published.ts), or,
 * for a preview, the snapshot with one section's draft in place of its published document.
 */
export const SITE_CONTENT_CONTEXT_KEY = 'siteContent';

/** A media-library reference as content fields store it: `media/<uuid>`. */
export const MEDIA_REFERENCE = /^media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export interface SitePreview {
  section: SectionKey;
  title: string;
}

/** What a page render reads the content from (no query: everything is in memory). */
export interface SiteContentReader {
  get<K extends SectionKey>(section: K): SectionDocument<K>;
  /** The media items the documents name, by reference (`media/<uuid>`), ready to draw (sizes left to the page). */
  media(): Record<string, MediaPicture>;
  /** The section shown as its draft (a preview) and what staff call it, or null for what visitors see. */
  readonly preview: SitePreview | null;
}

/** Every media reference (`media/<uuid>`) anywhere in a document. */
export function mediaReferencesIn(document: unknown, into = new Set<string>()): Set<string> {
  if (typeof document === 'string') {
    if (MEDIA_REFERENCE.test(document)) into.add(document);
  } else if (Array.isArray(document)) {
    for (const item of document) mediaReferencesIn(item, into);
  } else if (document && typeof document === 'object') {
    for (const value of Object.values(document)) mediaReferencesIn(value, into);
  }
  return into;
}

/** Where a preview of each section opens by default: the page that shows most of it. */
export const SECTION_PREVIEW_PAGES: Record<SectionKey, string> = {
  company: '/contact',
  facts: '/about',
  home: '/',
  services: '/services',
  about: '/about',
  team: '/about',
  process: '/how-we-work',
  projects: '/projects',
  equipment: '/equipments',
  gallery: '/gallery',
  testimonials: '/gallery',
  certificates: '/certifications',
  partners: '/',
  contact: '/contact',
  footer: '/',
};

/** The address of a section's preview (GET /preview/:section?path=...). */
export const previewPath = (section: SectionKey, path = SECTION_PREVIEW_PAGES[section]) =>
  `/preview/${encodeURIComponent(section)}?path=${encodeURIComponent(path)}`;
