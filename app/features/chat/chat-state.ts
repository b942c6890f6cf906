// The conversation as the panel keeps it in session storage (it survives moving between pages).

/** The specification's chat message (section 3). */
export interface ChatMessage {
  id: string;
  text: string;
  isUser: boolean;
  timestamp: number;
  /** An answer that found nothing: offers the hand-off right under it. */
  offerHandoff?: boolean;
}

export interface ChatState {
  conversationId?: string;
  messages: ChatMessage[];
  open: boolean;
  handedOff?: boolean;
}

export function loadChatState(storageKey: string): ChatState {
  try {
    const raw = sessionStorage.getItem(storageKey);
    if (raw) {
      const parsed = JSON.parse(raw) as ChatState;
      if (Array.isArray(parsed.messages)) return parsed;
    }
  } catch {
    // storage refused or damaged: start afresh
  }
  return { messages: [], open: false };
}

export function saveChatState(storageKey: string, state: ChatState) {
  try {
    sessionStorage.setItem(storageKey, JSON.stringify(state));
  } catch {
    // storage full or refused: the conversation still works on this page
  }
}
