import '../zod-setup.ts';
import { z } from 'zod';
import { contactMessageFieldsSchema } from './contact.ts';
import { formGuardFieldsSchema } from './forms.ts';
import { multilineString } from './line-endings.ts';
import { okResponse } from './ok-response.ts';

// The support chat (issue 11; specification sections 2, 3, 5, 8). The browser panel imports only the
// constants and texts of this file (never zod, see chat-texts.ts), the server the schemas.

export {
  CHAT_QUESTION_MAX_CHARS,
  CHAT_MAX_TURNS,
  CHAT_STREAM_CONTENT_TYPE,
  type ChatStreamEvent,
  type ChatOutcome,
  
} from './chat-texts.ts';
import { CHAT_QUESTION_MAX_CHARS } from './chat-texts.ts';

/** A question as the panel sends it; the length rule is checked by the route to give its own message. */
export const chatQuestionSchema = z.object({
  conversationId: z.uuid().optional(),
  // A generous hard cap for the body; the visible limit (CHAT_QUESTION_MAX_CHARS) is the route's.
  question: multilineString().max(CHAT_QUESTION_MAX_CHARS * 4),
});

/** The hand-off form: who to answer, and the conversation to send along (its turns come from the server). */
export const chatHandoffSchema = z
  .object({
    conversationId: z.uuid().optional(),
    name: contactMessageFieldsSchema.shape.name,
    email: contactMessageFieldsSchema.shape.email,
    phone: contactMessageFieldsSchema.shape.phone,
  })
  .extend(formGuardFieldsSchema.shape);

export const chatHandoffResponseSchema = okResponse({ message: z.string() });

export const CHAT_ADMIN_DAYS = 30;

const chatTurnSchema = z.object({
  question: z.string(),
  answer: z.string(),
  outcome: z.enum(['answered', 'unknown', 'refused', 'empty', 'failed']),
  mode: z.enum(['ai', 'offline', 'none']),
  createdAt: z.iso.datetime(),
});
const chatConversationSchema = z.object({
  _id: z.uuid(),
  startedAt: z.iso.datetime(),
  lastAt: z.iso.datetime(),
  turns: z.array(chatTurnSchema),
  handedOffAt: z.iso.datetime().nullable(),
  contactMessageId: z.uuid().nullable(),
});
export type ChatConversationSummary = z.infer<typeof chatConversationSchema>;

export const chatOverviewResponseSchema = okResponse({
  conversations: z.array(chatConversationSchema),
  unknownQuestions: z.array(z.object({ question: z.string(), count: z.number().int(), lastAskedAt: z.iso.datetime() })),
  totals: z.object({ conversations: z.number().int(), handedOff: z.number().int(), unknown: z.number().int() }),
});
export type ChatOverviewResponse = z.infer<typeof chatOverviewResponseSchema>;
