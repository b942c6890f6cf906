// Constants and words of the support chat shared by the browser panel and the server. No zod and no
// run-time imports here: the panel's code loads on a visitor's phone.
import type { GuardedForm } from '../form-guard.ts';

/** The longest question the assistant takes. */
export const CHAT_QUESTION_MAX_CHARS = 500;
/** Questions in one conversation; then the visitor starts a new one (or hands it to the team). */
export const CHAT_MAX_TURNS = 20;
/** The hand-off is a contact message: the contact form's bot guard (timing, rate limit) applies to it. */
export const CHAT_HANDOFF_GUARD = 'contact' satisfies GuardedForm;
/** The stream of an answer: one JSON object per line. */
export const CHAT_STREAM_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

export type ChatOutcome = 'answered' | 'unknown' | 'refused' | 'empty' | 'failed';
/** Which engine answered: the generative service, retrieval over the facts, or none (refused first). */
export type ChatMode = 'ai' | 'offline' | 'none';

/** The lines of an answer's stream, in order: start, any number of delta, then done or error. */
export type ChatStreamEvent =
  | { type: 'start'; conversationId: string }
  | { type: 'delta'; text: string }
  | { type: 'done'; outcome: ChatOutcome; mode: ChatMode }
  | { type: 'error'; message: string };

export interface ContactWays {
  phone: string;
  email: string;
}

export const CHAT_TEXTS = {
  title: 'Customer Support',
  subtitle: 'We typically reply in a few minutes',
  welcome: (companyShortName: string) =>
    `Hello! Welcome to ${companyShortName}. I'm the automatic assistant and I answer at once, from what our website says about our services, projects, equipment, certifications, vendor registration and how to reach us. To reach a person, use 'Talk to our team'. How can I help you today?`,
  closeButton: 'Close chat',
  inputLabel: 'Type your message',
  inputPlaceholder: 'Type your message...',
  send: 'Send',
  typing: 'Support is typing',
  clear: 'Clear conversation',
  handoffOpen: 'Talk to our team',
  handoffTitle: 'Send this conversation to our team',
  handoffIntro: 'Leave your details and a member of our team will get back to you within 24 hours.',
  handoffName: 'Name',
  handoffEmail: 'Email',
  handoffPhone: 'Phone (optional)',
  handoffSubmit: 'Send to the team',
  handoffBusy: 'Sending...',
  handoffCancel: 'Cancel',
  handoffSent: "Thank you. Your conversation has been sent to our team. We'll get back to you within 24 hours.",
  handoffFailed: 'Failed to send message. Please try again.',
  youSaid: 'You',
  assistantSaid: 'Support',
  /** Section 8: the reply was empty. */
  emptyReply: (c: ContactWays) =>
    `I'm sorry, I'm having trouble responding right now. Please call us on ${c.phone} or e-mail ${c.email} and our team will help you.`,
  /** Section 8: the network failed. */
  networkError: (c: ContactWays) =>
    `I'm sorry, I'm having trouble connecting right now. Please contact us by phone on ${c.phone} or by e-mail at ${c.email}.`,
  /** Retrieval found nothing (also the assistant's words when the facts do not cover a question). */
  unknown:
    "I'm sorry, I don't know the answer to that. Would you like to send your question to our team? Use 'Talk to our team' below and we'll get back to you.",
  refusal:
    "I'm sorry, I can only help with questions about our company: our services, projects, equipment, certifications, vendor registration and how to contact us. What would you like to know?",
  foundIntro: 'Here is what I found:',
  /** Retrieval found facts that hold too few of the question's words to answer it. */
  nearestIntro:
    "I'm not sure I have the answer to that. This is the nearest I found; if it does not help, use 'Talk to our team' below and we'll get back to you:",
  tooLong: `Your question is too long. Please keep it under ${CHAT_QUESTION_MAX_CHARS} characters.`,
  tooManyTurns: `This conversation has reached its limit of ${CHAT_MAX_TURNS} questions. Please clear the conversation to start a new one, or send it to our team.`,
  perMinute: (wait: string) => `You are sending questions too quickly. Please try again in ${wait}.`,
  perDay: (wait: string) => `You have reached today's limit of questions. Please try again in ${wait}, or contact us by phone or e-mail.`,
  emptyQuestion: 'Please type a question.',
} as const;
