import { createRequire } from 'node:module';
import type sanitizeHtmlType from 'sanitize-html';

// sanitize-html (with postcss and htmlparser2: some 3.5 MB of heap and a tenth of a second) is loaded
// by the first article or blog post that needs it, not at start (decision 301). It is CommonJS, so
// it is required synchronously and these functions stay synchronous.
const require = createRequire(import.meta.url);
let loaded: { sanitizeHtml: typeof sanitizeHtmlType; options: sanitizeHtmlType.IOptions } | undefined;
function library() {
  if (!loaded) {
    const sanitizeHtml = require('sanitize-html') as typeof sanitizeHtmlType;
    loaded = { sanitizeHtml, options: articleOptions(sanitizeHtml.defaults.allowedTags) };
  }
  return loaded;
}

/** The message of the specification (section 5) for a URL that begins with 'relative:'. */
export const RELATIVE_EXPLOIT_MESSAGE = 'relative: exploit attempt';

/** Thrown when article HTML carries a 'relative:' URL; callers refuse the input (blog) or drop it (news). */
export class UnsafeArticleHtmlError extends Error {
  constructor() {
    super(RELATIVE_EXPLOIT_MESSAGE);
    this.name = 'UnsafeArticleHtmlError';
  }
}

const LENGTH = /^\d+(?:\.\d+)?(?:px|em|%)$/;
const URL_ATTRIBUTES = ['href', 'src'];

// The allowlist of the specification, section 5 ("Article body sanitising"), used for blog post
// bodies when saved and for news content when fetched, and again whenever either is rendered.
const articleOptions = (defaultTags: string[]): sanitizeHtmlType.IOptions => ({
  allowedTags: [...defaultTags, 'img', 'h1', 'h2', 'h3', 'iframe'],
  allowedAttributes: {
    img: ['src', 'alt', 'width', 'height', 'style', 'class'],
    iframe: ['src', 'width', 'height', 'frameborder', 'allowfullscreen'],
    // rel is added by us (below) to links that open a new tab; a rel written in the input is replaced.
    a: ['href', 'name', 'target', 'rel'],
  },
  allowedStyles: {
    '*': {
      color: [/^#[0-9a-f]{3,8}$/i, /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/i],
      'text-align': [/^left$/, /^right$/, /^center$/],
      'font-size': [LENGTH],
      margin: [LENGTH],
      padding: [LENGTH],
    },
  },
  allowedSchemes: ['http', 'https', 'ftp', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: true,
  transformTags: {
    '*': (tagName, attribs) => {
      for (const name of URL_ATTRIBUTES) {
        const value = attribs[name];
        // Browsers ignore leading spaces and control characters in URLs, so does this check.
        // eslint-disable-next-line no-control-regex
        if (value !== undefined && /^[\s\u0000-\u001f]*relative:/i.test(value)) throw new UnsafeArticleHtmlError();
      }
      if (tagName === 'a') {
        const { rel: _rel, ...rest } = attribs;
        return { tagName, attribs: rest.target === '_blank' ? { ...rest, rel: 'noopener noreferrer' } : rest };
      }
      return { tagName, attribs };
    },
  },
});

/**
 * Sanitises article HTML with the specification's allowlist: tags, attributes, inline styles and URL
 * schemes. Throws UnsafeArticleHtmlError for a 'relative:' URL.
 */
export function sanitizeArticleHtml(html: string): string {
  const { sanitizeHtml, options } = library();
  return sanitizeHtml(html, options);
}

/** The text of some HTML, tags stripped and whitespace collapsed (card descriptions, meta tags). */
export function htmlToText(html: string): string {
  return library()
    .sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
