// The floating chat button's behaviour, as a small module that finds its markup by data-module, so
// it works the same with or without React around it. The panel's code loads only when wanted.

import type * as Panel from './chat-panel.ts';

/** Where the conversation is kept for this browser tab (the panel reads and writes it). */
const CHAT_STORAGE_KEY = 'supportChat';
export const CHAT_BUTTON_LABEL = 'Open customer support chat';

type PanelModule = typeof Panel;
let loading: Promise<PanelModule> | null = null;
const loadPanel = () => (loading ??= import('./chat-panel.ts').catch((err: unknown) => {
  loading = null;
  throw err;
}));

function wasOpen(): boolean {
  try {
    return (JSON.parse(sessionStorage.getItem(CHAT_STORAGE_KEY) ?? 'null') as { open?: boolean } | null)?.open === true;
  } catch {
    return false;
  }
}

/** Wires a `data-module="chat-button"` button; returns what undoes it (the panel goes too). */
export function enhanceChatButton(button: HTMLElement): () => void {
  const open = () => {
    void loadPanel().then((m) => m.toggleChatPanel(button, CHAT_STORAGE_KEY));
  };
  // A pointer over the button or keyboard focus on it: start fetching so the click feels instant.
  const warm = () => void loadPanel().catch(() => undefined);
  button.addEventListener('click', open);
  button.addEventListener('pointerenter', warm, { once: true });
  button.addEventListener('focus', warm, { once: true });
  // The panel was open on the previous page: show it again (without taking focus).
  if (wasOpen()) void loadPanel().then((m) => m.restoreChatPanel(button, CHAT_STORAGE_KEY));
  return () => {
    button.removeEventListener('click', open);
    button.removeEventListener('pointerenter', warm);
    button.removeEventListener('focus', warm);
    if (loading) void loading.then((m) => m.destroyChatPanel());
  };
}
