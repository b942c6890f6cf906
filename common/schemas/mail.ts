import '../zod-setup.ts';
import { z } from 'zod';
import { okResponse } from './ok-response.ts';

/**
 * What became of one mail at the moment the screen asks: sent over SMTP, not sent because no mail
 * transport is configured (it waits in the outbox), or tried and failed (it is retried later).
 */
const MAIL_OUTCOMES = ['sent', 'not-configured', 'failed'] as const;
export type MailOutcome = (typeof MAIL_OUTCOMES)[number];
export const mailOutcomeSchema = z.enum(MAIL_OUTCOMES);

/** GET /mail/status (staff): whether mail can leave, and what waits or failed in the outbox. */
export const mailStatusResponseSchema = okResponse({
  /** Whether SMTP_URL is set. */
  configured: z.boolean(),
  /** Mails not sent yet: kept without a transport, or waiting for a retry. */
  waiting: z.number().int(),
  /** Mails given up on after every attempt failed. */
  failed: z.number().int(),
});
export type MailStatusResponse = z.infer<typeof mailStatusResponseSchema>;

/** What staff are told about an invitation's mail (add-client form and invitation actions). */
export function invitationMailText(outcome: MailOutcome, email: string): string {
  if (outcome === 'sent') return `E-mailed to ${email}. You can also copy it and send it another way.`;
  if (outcome === 'failed') return `The e-mail to ${email} could not be sent (it will be retried): copy this link and send it yourself.`;
  return 'E-mail is not set up: copy this link and send it yourself.';
}
