import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { Message } from '../../../common/schemas/messages.ts';

/** The element id of a message in the thread: what a search hit's `#message-<id>` opens (decision 261). */
export const messageElementId = (id: string) => `message-${id}`;
const TARGET_PREFIX = '#message-';
// A message further back than this many pages is not hunted for (100 messages a page).
const MAX_PAGES_TO_TARGET = 50;

/**
 * The message the address names (`#message-<id>`, from a search hit or a shared link): earlier pages
 * are loaded until it is in the thread, then it is scrolled into view, given the focus (so a screen
 * reader reads it) and marked. Each navigation reveals once; returns the id marked.
 */
export function useMessageTarget(messages: Message[], hasEarlier: boolean, loadingEarlier: boolean, showEarlier: () => void): string | null {
  const { hash, key } = useLocation();
  const target = hash.startsWith(TARGET_PREFIX) ? decodeURIComponent(hash.slice(TARGET_PREFIX.length)) : null;
  const [marked, setMarked] = useState<string | null>(null);
  const done = useRef<string | null>(null);
  const pagesLoaded = useRef(0);
  const present = target !== null && messages.some((m) => m._id === target);

  useEffect(() => {
    if (!target || done.current === key) return;
    if (!present) {
      if (hasEarlier && !loadingEarlier && pagesLoaded.current < MAX_PAGES_TO_TARGET) {
        pagesLoaded.current++;
        showEarlier();
      }
      return;
    }
    const el = document.getElementById(messageElementId(target));
    if (!el) return;
    done.current = key;
    pagesLoaded.current = 0;
    el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
    setMarked(target);
  }, [target, key, present, hasEarlier, loadingEarlier, showEarlier]);

  return marked;
}
