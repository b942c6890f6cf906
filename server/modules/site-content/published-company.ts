import type { FastifyInstance } from 'fastify';
import type { SectionDocument, SectionKey } from '../../../common/content/sections.ts';

// What the server's own outputs (the profile PDF, the support chat, the mails) read of the website's
// content: the published snapshot of this process (decision 290), at the moment they answer or send,
// never common/content/*.ts, so a publish reaches them on every process without a restart.

/** Reads published sections: `app.publishedContent`, or any holder of documents in its shape. */
export interface PublishedReader {
  get<K extends SectionKey>(section: K): SectionDocument<K>;
}

/** The company profile as published: name, phones, e-mail, addresses... */
export type PublishedCompany = SectionDocument<'company'>;

/** The published company profile of this process, as it is now (read it where it is used, not once). */
export function publishedCompany(app: Pick<FastifyInstance, 'publishedContent'>): PublishedCompany {
  return app.publishedContent.get('company');
}

type Documents<K extends readonly SectionKey[]> = { [I in keyof K]: SectionDocument<K[I]> };

export interface PublishedMemo<T> {
  /** The value for the reader's documents now: computed again only when one of the sections changed. */
  (reader: PublishedReader): T;
  /** Drops the reader's value (a failed render), so the next call computes it again. */
  forget(reader: PublishedReader): void;
}

/**
 * A value derived from some published sections (an index, a PDF), kept per reader and computed again
 * only when one of those sections changed. The snapshot replaces a section's document only when its
 * content changed, so comparing the documents by identity is exact and costs nothing; no listener,
 * so there is nothing to unsubscribe, and a reader that is gone takes its value with it.
 */
export function publishedMemo<const K extends readonly SectionKey[], T>(sections: K, derive: (...documents: Documents<K>) => T): PublishedMemo<T> {
  const kept = new WeakMap<PublishedReader, { documents: unknown[]; value: T }>();
  const memo = (reader: PublishedReader): T => {
    const documents = sections.map((section) => reader.get(section));
    const entry = kept.get(reader);
    if (entry && entry.documents.every((doc, i) => doc === documents[i])) return entry.value;
    const value = derive(...(documents as Documents<K>));
    kept.set(reader, { documents, value });
    return value;
  };
  memo.forget = (reader: PublishedReader) => void kept.delete(reader);
  return memo;
}
