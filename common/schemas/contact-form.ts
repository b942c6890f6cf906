import type { FieldRule } from './form-check.ts';

// What the contact form needs in the browser, without zod (decision 144): its words and limits, and
// the rules of the check it runs before sending (form-check.ts). The schema in contact.ts stays the
// source of truth (the server checks every message with it); form-check.test.ts proves the two agree.

export const CONTACT_MESSAGE_ROWS = 19;
export const CONTACT_MESSAGE_MAX_CHARS = 5000;
export const CONTACT_MESSAGES = {
  sentTitle: 'Message Sent Successfully!',
  sentDescription: "We'll get back to you within 24 hours.",
  failed: 'Failed to send message. Please try again.',
} as const;

export const CONTACT_FIELD_MESSAGES = {
  nameMissing: 'Please enter your name',
  nameTooLong: 'Your name is too long (at most 200 characters)',
  emailMissing: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  phoneTooLong: 'The phone number is too long (at most 50 characters)',
  companyTooLong: 'The company name is too long (at most 200 characters)',
  messageMissing: 'Please enter your message',
  messageTooLong: `Your message is too long (at most ${CONTACT_MESSAGE_MAX_CHARS} characters)`,
} as const;

/** How the refusal of a disguising character in a one-line field starts (decision 195). */
export const CONTACT_LINE_WORDS = { name: 'Your name', phone: 'The phone number', company: 'The company name' } as const;

// The schema leaves this limit's words to zod's English locale.
const EMAIL_TOO_LONG = 'Too big: expected string to have <=254 characters';
const M = CONTACT_FIELD_MESSAGES;

/** The fields of contactMessageFieldsSchema (contact.ts checks that its schema has exactly these). */
export type ContactFieldName = 'name' | 'email' | 'phone' | 'company' | 'message';

/** The rules of contactMessageFieldsSchema (contact.ts), in its order, for checkForm. */
export const CONTACT_FORM_RULES: Record<ContactFieldName, FieldRule> = {
  name: { singleLine: CONTACT_LINE_WORDS.name, missing: M.nameMissing, max: 200, tooLong: M.nameTooLong },
  email: { missing: M.emailMissing, max: 254, tooLong: EMAIL_TOO_LONG, invalidEmail: M.emailInvalid },
  phone: { singleLine: CONTACT_LINE_WORDS.phone, max: 50, tooLong: M.phoneTooLong },
  company: { singleLine: CONTACT_LINE_WORDS.company, max: 200, tooLong: M.companyTooLong },
  message: { missing: M.messageMissing, max: CONTACT_MESSAGE_MAX_CHARS, tooLong: M.messageTooLong },
};
