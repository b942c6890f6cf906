import { ARTICLES_CONTEXT_KEY, type ArticlesReader } from '../../../common/schemas/articles.ts';

/** The articles reader the server puts in the load context (server/plugins/web.ts). */
export function articlesReaderFrom(context: unknown): ArticlesReader {
  const reader = (context as Record<string, unknown> | undefined)?.[ARTICLES_CONTEXT_KEY] as ArticlesReader | undefined;
  if (!reader) throw new Error('The articles reader is missing from the load context');
  return reader;
}

/** The loader's logger, when the server passed one. */
export function loggerFrom(context: unknown): { error: (obj: object, msg: string) => void } | undefined {
  return (context as { logger?: { error: (obj: object, msg: string) => void } } | undefined)?.logger;
}
