import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageContextExtras } from '../plugins/page-context.ts';

// A route outside the web plugin (a form post that answers with a page, decision 176) asks the web
// app to render one of its pages with extra load context. The web plugin in use (the build or
// Vite's dev server) fills this in; an API-only process (SERVE_WEB off, the API tests) has none.

interface PageToRender {
  /** The page's path in the web app (rendered as a GET of that path). */
  path: string;
  /** Added to the load context its loader reads. */
  context: PageContextExtras;
  /** The status the page's loader answers with; any other answer means this build has no such page. */
  status: number;
}

/** Renders and sends the page; false (nothing sent) when the web app could not render it. */
export type PageRenderer = (request: FastifyRequest, reply: FastifyReply, page: PageToRender) => Promise<boolean>;

export interface WebPages {
  render: PageRenderer | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    webPages: WebPages;
  }
}
