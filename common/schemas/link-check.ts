import { disguisingCharacter } from './single-line.ts';

// Issue 45, decision 300: every link a person can publish is a web link (https: or http:), or, where
// the code makes a link of an e-mail address or a phone number, a mailto: or tel: link. Nothing else
// (javascript:, data:, vbscript:, file:, a scheme hidden behind spaces, controls or mixed case) is
// stored or rendered. This file is the one rule: links.ts wraps it for the zod schemas (the forms'
// check in the browser and the API's on the server), form-check.ts for the public forms, and every
// renderer (pages, JSON-LD, PDFs, mails) passes a link through safeHref before it writes it.
//
// No zod here: the public pages and forms that use it load no zod (decision 144).

/** What a link may be: a web address, or also an e-mail (mailto:) or phone (tel:) link. */
export type LinkKind = 'web' | 'contact';

/** The longest link kept (browsers and search engines handle far longer, people never type it). */
const LINK_MAX_LENGTH = 2048;

export const LINK_MESSAGES = {
  web: 'Enter a web address starting with https:// or http://',
  contact: 'Enter a web address starting with https:// or http://, or a mailto: or tel: link',
  hidden: 'A web address must not contain spaces, line breaks or invisible characters',
  credentials: 'Enter the web address without a user name or password',
  tooLong: `The web address is too long (at most ${LINK_MAX_LENGTH.toLocaleString('en-GB')} characters)`,
} as const;

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
// A host must follow the two slashes at once: 'https:/x', 'https:///x' and 'http:x' parse as web
// addresses in browsers, but read as something else elsewhere.
const WEB_START = /^https?:\/\/[^/\\]/i;
const MAILTO = /^mailto:[^@?#/\s]+@[^@?#/\s.]+(?:\.[^@?#/\s.]+)+(?:\?.*)?$/i;
const TEL = /^tel:\+?[0-9().-]{3,30}$/i;

function webProblem(value: string, kind: LinkKind): string | null {
  if (!WEB_START.test(value)) return LINK_MESSAGES[kind];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return LINK_MESSAGES[kind];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return LINK_MESSAGES[kind];
  if (!url.hostname) return LINK_MESSAGES[kind];
  // 'https://facebook.com@evil.example' goes to evil.example: refused rather than shown to visitors.
  if (url.username || url.password) return LINK_MESSAGES.credentials;
  return null;
}

/**
 * Why `value` (trimmed first) cannot be a published link of this kind, in words; null when it can.
 * The scheme is read after trimming, case-insensitively, and any space, control or invisible
 * character left inside is refused, so '  JaVaScRiPt:x' and 'java\tscript:x' are both refused.
 */
export function linkProblem(value: string, kind: LinkKind = 'web'): string | null {
  const link = value.trim();
  if (!link) return LINK_MESSAGES[kind];
  if (link.length > LINK_MAX_LENGTH) return LINK_MESSAGES.tooLong;
  if (/\s/.test(link) || disguisingCharacter(link) !== null) return LINK_MESSAGES.hidden;
  if (link.includes('\\')) return LINK_MESSAGES[kind];
  const scheme = SCHEME.exec(link)?.[1].toLowerCase();
  if (scheme === 'https' || scheme === 'http') return webProblem(link, kind);
  if (kind === 'contact' && scheme === 'mailto' && MAILTO.test(link)) return null;
  if (kind === 'contact' && scheme === 'tel' && TEL.test(link)) return null;
  return LINK_MESSAGES[kind];
}

/**
 * The link to write into an href (or a JSON-LD url, a PDF, a mail): the value trimmed when it is a
 * link of this kind, otherwise undefined, and the caller writes no link. The second line behind the
 * schemas: content stored before them, or put into the database by other means, stops here.
 */
export function safeHref(value: unknown, kind: LinkKind = 'web'): string | undefined {
  if (typeof value !== 'string' || linkProblem(value, kind) !== null) return undefined;
  return value.trim();
}

/**
 * `path` (a site path, or an absolute address) as an absolute web address on the site at `siteUrl`
 * (canonical links, Open Graph, JSON-LD, the sitemap and feed). When the site's address is not a web
 * address, a site path stays relative; a result that is no web address falls back to the site's root.
 */
export function siteLink(siteUrl: string, path: string): string {
  const base = safeHref(siteUrl);
  const sitePath = path.startsWith('/') && !path.startsWith('//') ? path : '/';
  if (base === undefined) return safeHref(path) ?? sitePath;
  let resolved: string | undefined;
  try {
    resolved = new URL(path, base).href;
  } catch {
    resolved = undefined;
  }
  return safeHref(resolved) ?? new URL('/', base).href;
}
