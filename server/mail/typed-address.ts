import type { FastifyInstance } from 'fastify';
import { hitRateLimit, type RateLimitRule } from '../lib/rate-limit.ts';
import type { DbExecutor } from './mailer.ts';

// Decision 190: one rule for every mail that goes to an address a visitor typed into a public form,
// or that a visitor can make us send by typing (anyone can type a stranger's address there, so the
// mail must be useless as a message to a victim and as a flood):
// - it carries none of the visitor's words, except at most a short plain name in the greeting
//   (mailName below; anything else becomes a plain "Hello,");
// - at most a few go to one recipient a day, per kind of mail (TYPED_ADDRESS_MAILS_PER_DAY);
//   past that the mail is not sent, and the visitor's answer does not change.

const DAY_MS = 24 * 60 * 60_000;

/** Mails per recipient address per day, per kind of mail sent to a typed address. */
export const TYPED_ADDRESS_MAILS_PER_DAY = {
  'chat-handoff-visitor': 2,
  'vendor-application-ack': 2,
  // The confirmation link and the "already subscribed" note share one count: both answer the box.
  newsletter: 3,
  // Only to an account's own address and with no typed words, but anyone can ask for it: besides
  // its 3 an hour, a few a day.
  'password-reset': 5,
} as const;

export type TypedAddressMail = keyof typeof TYPED_ADDRESS_MAILS_PER_DAY;

/** A name this long or longer, or with more words, is not put into a mail. */
const MAIL_NAME_MAX_CHARS = 40;
const MAIL_NAME_MAX_WORDS = 4;

// Letters (any script) and the marks that belong to them; a word may be joined by an apostrophe or
// a hyphen and may end in a period ("J.", "Jr."), but a period inside a word is a domain
// ("evil.example") and is refused. Digits, ':', '/', '@' and every other sign are refused, so no
// URL, mail address, phone number or domain can stand in the greeting.
const NAME_WORD = /^\p{L}\p{M}*(?:[\p{L}\p{M}]|['’-](?=\p{L}))*\.?$/u;

/**
 * The visitor's name as it may appear in a mail to a typed address, or null when it may not (the
 * mail then says "Hello,"). Only a short run of plain words passes; nothing is cut out of a longer
 * text, because what is left of a sentence is still the sender's sentence.
 */
export function mailName(raw: string | null | undefined): string | null {
  const name = (raw ?? '').normalize('NFC').replace(/\s+/g, ' ').trim();
  if (!name || name.length > MAIL_NAME_MAX_CHARS) return null;
  const words = name.split(' ');
  if (words.length > MAIL_NAME_MAX_WORDS) return null;
  return words.every((w) => NAME_WORD.test(w)) ? name : null;
}

/** "Hello Ada Obi," when the name may be shown, else "Hello,". */
export function mailGreeting(raw: string | null | undefined): string {
  const name = mailName(raw);
  return name ? `Hello ${name},` : 'Hello,';
}

/**
 * The mailbox an address delivers to, for counting: lower-cased, without a "+tag" (most providers
 * deliver victim+1@ and victim+2@ to victim@), and for Gmail without dots, so the cap cannot be
 * stepped round by writing the same mailbox many ways.
 */
export function recipientKey(address: string): string {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf('@');
  if (at < 1) return a;
  let local = a.slice(0, at);
  let domain = a.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replace(/\./g, '');
  return `${local}@${domain}`;
}

const rules = new Map<TypedAddressMail, RateLimitRule>(
  Object.entries(TYPED_ADDRESS_MAILS_PER_DAY).map(([kind, limit]) => [kind as TypedAddressMail, { bucket: `typed-mail:${kind}`, limit, windowMs: DAY_MS }]),
);

/**
 * Counts one mail of this kind to this address and says whether it may be sent (false past the
 * day's cap). Call it only when the mail would really be sent; inside a transaction, pass it.
 */
export async function mayMailTypedAddress(app: FastifyInstance, kind: TypedAddressMail, to: string, db?: DbExecutor): Promise<boolean> {
  const result = await hitRateLimit(app, rules.get(kind)!, recipientKey(to), 1, db);
  if (!result.allowed) app.log.info({ kind }, 'mail to a typed address not sent: its daily cap for that recipient is reached');
  return result.allowed;
}
