import { createHmac } from 'node:crypto';
import { and, asc, count, desc, eq, gte, inArray, max, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { CHAT_ADMIN_DAYS, CHAT_MAX_TURNS, type ChatOutcome, type ChatOverviewResponse } from '../../../common/schemas/chat.ts';
import { CONTACT_MESSAGE_MAX_CHARS } from '../../../common/schemas/contact.ts';
import { chatConversations, chatTurns } from '../../db/schema/chat.ts';
import { renderMail } from '../../mail/layout.ts';
import { mailGreeting, mayMailTypedAddress } from '../../mail/typed-address.ts';
import type { MailInput } from '../../mail/mailer.ts';
import { serverSecret } from '../../lib/server-secrets.ts';
import { createContactMessage } from '../contact/contact.service.ts';
import { publishedCompany } from '../site-content/published-company.ts';

const DAY_MS = 24 * 60 * 60_000;
/** How many conversations the staff page lists. */
const CHAT_ADMIN_LIST_SIZE = 50;

/** A keyed hash of the visitor's address key (an IPv6 /64: decision 191): the same visitor gives the same value, nobody can reverse it. */
export async function visitorHash(app: FastifyInstance, ip: string): Promise<string> {
  return createHmac('sha256', await serverSecret(app, 'chat-visitor')).update(ip).digest('base64url').slice(0, 32);
}

/**
 * Takes one question's place in a conversation: the given one when it exists and has turns left,
 * else a new one. The count and the check are one statement, so parallel questions never pass the
 * limit. Returns null when the conversation has used all its turns.
 */
export async function takeTurn(app: FastifyInstance, conversationId: string | undefined, visitor: string): Promise<{ id: string; turn: number } | null> {
  const now = app.clock.now();
  if (conversationId) {
    const [row] = await app.db
      .update(chatConversations)
      .set({ turns: sql`${chatConversations.turns} + 1`, lastAt: now })
      .where(and(eq(chatConversations.id, conversationId), sql`${chatConversations.turns} < ${CHAT_MAX_TURNS}`))
      .returning({ id: chatConversations.id, turn: chatConversations.turns });
    if (row) return row;
    const [exists] = await app.db.select({ id: chatConversations.id }).from(chatConversations).where(eq(chatConversations.id, conversationId));
    if (exists) return null;
  }
  const [row] = await app.db
    .insert(chatConversations)
    .values({ visitorHash: visitor, turns: 1, startedAt: now, lastAt: now })
    .returning({ id: chatConversations.id, turn: chatConversations.turns });
  return row;
}

/** The last `n` turns of a conversation, oldest first (the AI's memory of it). */
export async function recentTurns(app: FastifyInstance, conversationId: string, n: number) {
  const rows = await app.db
    .select({ question: chatTurns.question, answer: chatTurns.answer })
    .from(chatTurns)
    .where(eq(chatTurns.conversationId, conversationId))
    .orderBy(desc(chatTurns.createdAt))
    .limit(n);
  return rows.reverse();
}

/** Keeps one question and its answer. */
export async function recordTurn(
  app: FastifyInstance,
  conversationId: string,
  turn: { question: string; answer: string; outcome: ChatOutcome; mode: 'ai' | 'offline' | 'none' },
): Promise<void> {
  await app.db.insert(chatTurns).values({ conversationId, ...turn, createdAt: app.clock.now() });
}

/** The conversation as text for staff, newest turns kept when it is longer than a contact message takes. */
function transcriptOf(turns: { question: string; answer: string }[], limit = CONTACT_MESSAGE_MAX_CHARS): string {
  const head = 'Sent from the support chat. The conversation so far:';
  const blocks = turns.map((t) => `Visitor: ${t.question}\nAssistant: ${t.answer || '(no answer)'}`);
  if (!blocks.length) return 'Sent from the support chat before asking a question. Please get in touch with the visitor.';
  const kept: string[] = [];
  let size = head.length + 40;
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (size + blocks[i].length + 2 > limit) break;
    kept.unshift(blocks[i]);
    size += blocks[i].length + 2;
  }
  if (!kept.length) kept.push(blocks[blocks.length - 1].slice(0, limit - size));
  const omitted = blocks.length - kept.length;
  return [head, ...(omitted ? [`(${omitted} earlier question${omitted === 1 ? '' : 's'} left out)`] : []), ...kept].join('\n\n');
}

/** The mail that tells a visitor their support chat reached the team. */
export function handOffAcknowledgement(app: FastifyInstance, visitor: { name: string; email: string }): MailInput {
  // The address was typed by whoever used the chat (decision 190): our own words, at most a plain name.
  const company = publishedCompany(app);
  const ack = renderMail({
    subject: `We received your question (${company.shortName} support)`,
    greeting: mailGreeting(visitor.name),
    paragraphs: [
      `Thank you for contacting ${company.name}. Your conversation with our support assistant has reached our team, and we'll get back to you within 24 hours.`,
      `If it is urgent, call us on ${company.phone} or reply to this e-mail.`,
      'If you did not use the support chat on our website, someone else typed this address: you can ignore this e-mail.',
    ],
  });
  return { ...ack, to: visitor.email, kind: 'chat-handoff-visitor', replyTo: app.config.STAFF_EMAIL };
}

/**
 * Sends the conversation to the team: a contact message in the staff inbox with the transcript, the
 * staff notification and the visitor's acknowledgement (the contact form's own service does all three).
 */
export async function handOffConversation(
  app: FastifyInstance,
  input: { conversationId?: string; name: string; email: string; phone: string },
): Promise<{ contactMessageId: string }> {
  const turns = input.conversationId
    ? await app.db
        .select({ question: chatTurns.question, answer: chatTurns.answer })
        .from(chatTurns)
        .where(eq(chatTurns.conversationId, input.conversationId))
        .orderBy(asc(chatTurns.createdAt))
    : [];
  // A few a day per recipient (decision 190); past that staff still get the conversation.
  const acknowledge = await mayMailTypedAddress(app, 'chat-handoff-visitor', input.email);
  const { id } = await createContactMessage(
    app,
    { name: input.name, email: input.email, phone: input.phone, company: '', message: transcriptOf(turns) },
    null,
    { source: 'support chat', acknowledgement: acknowledge ? handOffAcknowledgement(app, input) : undefined },
  );
  if (input.conversationId) {
    await app.db
      .update(chatConversations)
      .set({ handedOffAt: app.clock.now(), contactMessageId: id })
      .where(eq(chatConversations.id, input.conversationId));
  }
  return { contactMessageId: id };
}

/** Staff's view: recent conversations, the questions most often left unanswered, and totals. */
export async function chatOverview(app: FastifyInstance): Promise<Omit<ChatOverviewResponse, 'success'>> {
  const since = new Date(app.clock.now().getTime() - CHAT_ADMIN_DAYS * DAY_MS);
  const conversations = await app.db
    .select()
    .from(chatConversations)
    .where(gte(chatConversations.lastAt, since))
    .orderBy(desc(chatConversations.lastAt), desc(chatConversations.id))
    .limit(CHAT_ADMIN_LIST_SIZE);
  const turns = conversations.length
    ? await app.db
        .select()
        .from(chatTurns)
        .where(inArray(chatTurns.conversationId, conversations.map((c) => c.id)))
        .orderBy(asc(chatTurns.createdAt))
    : [];
  const normalized = sql<string>`lower(regexp_replace(btrim(${chatTurns.question}), '\\s+', ' ', 'g'))`;
  const unknown = await app.db
    .select({ question: normalized, count: count(), lastAskedAt: max(chatTurns.createdAt) })
    .from(chatTurns)
    .where(and(eq(chatTurns.outcome, 'unknown'), gte(chatTurns.createdAt, since)))
    .groupBy(normalized)
    .orderBy(desc(count()), desc(max(chatTurns.createdAt)))
    .limit(20);
  const [totals] = await app.db
    .select({ conversations: count(), handedOff: count(chatConversations.handedOffAt) })
    .from(chatConversations)
    .where(gte(chatConversations.lastAt, since));
  const [unknownTotal] = await app.db
    .select({ n: count() })
    .from(chatTurns)
    .where(and(eq(chatTurns.outcome, 'unknown'), gte(chatTurns.createdAt, since)));
  return {
    conversations: conversations.map((c) => ({
      _id: c.id,
      startedAt: c.startedAt.toISOString(),
      lastAt: c.lastAt.toISOString(),
      handedOffAt: c.handedOffAt?.toISOString() ?? null,
      contactMessageId: c.contactMessageId,
      turns: turns
        .filter((t) => t.conversationId === c.id)
        .map((t) => ({
          question: t.question,
          answer: t.answer,
          outcome: t.outcome as ChatOutcome,
          mode: t.mode as 'ai' | 'offline' | 'none',
          createdAt: t.createdAt.toISOString(),
        })),
    })),
    unknownQuestions: unknown.map((u) => ({ question: u.question, count: u.count, lastAskedAt: new Date(u.lastAskedAt!).toISOString() })),
    totals: { conversations: totals.conversations, handedOff: totals.handedOff, unknown: unknownTotal.n },
  };
}
