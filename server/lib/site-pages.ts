import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { prerenderedPagePolicy } from '../plugins/security-headers.ts';
import type { StaticFile } from '../plugins/static-files.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Browsers revalidate a site page on every visit: a 304 while the content is unchanged. */
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Renders a site page's HTML from the content snapshot; null when the web app answered anything but a 200 page. */
export type SitePageRender = (path: string) => Promise<string | null>;

/**
 * The public content pages (common/paths.ts SITE_PAGE_PATHS) as HTML rendered from the published
 * content snapshot on first request, then kept in memory with their brotli and gzip forms, a strong
 * ETag and the policy of their hashed inline scripts: the same answer a file pre-rendered at build
 * time got (server/plugins/static-files.ts), but made at runtime (decision 289). A content change
 * empties it (clear); a render that began before the change is not kept.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** The kept site pages (decision 289); only where the web build is served. */
    sitePages?: SitePages;
  }
}

export class SitePages {
  private readonly pages = new Map<string, Promise<StaticFile | null>>();
  private generationCount = 0;

  constructor(
    private readonly render: SitePageRender,
    private readonly log: FastifyBaseLogger,
  ) {}

  get size() {
    return this.pages.size;
  }

  /** The page of `path`, rendered now when not kept; null when it could not be rendered (the caller renders as usual). */
  get(path: string): Promise<StaticFile | null> {
    const kept = this.pages.get(path);
    if (kept) return kept;
    const generation = this.generationCount;
    const made = this.make(path).catch((err: unknown) => {
      this.log.error({ err, path }, 'the site page could not be rendered');
      return null;
    });
    this.pages.set(path, made);
    void made.then((page) => {
      // Not kept when it failed (the next request tries again) or the content changed meanwhile.
      if ((page === null || generation !== this.generationCount) && this.pages.get(path) === made) this.pages.delete(path);
    });
    return made;
  }

  /** Forgets every page (the content changed): the next request renders from the new snapshot. */
  clear() {
    this.generationCount++;
    this.pages.clear();
  }

  private async make(path: string): Promise<StaticFile | null> {
    const html = await this.render(path);
    if (html === null) return null;
    const body = Buffer.from(html, 'utf8');
    // Brotli at quality 5 first (about a millisecond), so the page is ready with its render; the
    // quality 11 form (what the build wrote beside its files: some 10 % smaller, but 50-200 ms of
    // work) replaces it in the background, off the event loop.
    const brotliAt = (quality: number) => brotli(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: quality, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    const [br, gz] = await Promise.all([brotliAt(5), gzipAsync(body, { level: 9 })]);
    const page: StaticFile = {
      body,
      br: br.length < body.length ? br : undefined,
      gzip: gz.length < body.length ? gz : undefined,
      type: 'text/html; charset=utf-8',
      etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: REVALIDATE,
      // Rendered without a nonce (the same bytes for everyone): its own inline scripts are hashed.
      csp: prerenderedPagePolicy(html),
    };
    void brotliAt(11).then(
      (best) => {
        if (best.length < (page.br ?? body).length) page.br = best;
      },
      (err: unknown) => this.log.warn({ err }, 'the site page could not be compressed further'),
    );
    return page;
  }
}
