import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, conflict, notFound, unauthenticated } from '../../../common/errors.ts';
import { todayIso } from '../../../common/dates.ts';
import { findUnstorableText } from '../../../common/schemas/text.ts';
import { invoices, paystackTransactions } from '../../db/schema/payments.ts';
import { queueMail } from '../../mail/mailer.ts';
import { recordAudit, SYSTEM_ACTOR, type AuditContext } from '../audit/audit.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { invoiceLink, paymentMismatchMail } from './finance-mail.ts';
import { invoiceBalance, payOnlineEnabled } from './finance-read.ts';
import { visibleInvoice } from './invoice-access.ts';
import { insertPayment } from './payments.service.ts';
import { initializeTransaction, verifyPaystackSignature, verifyTransaction, type VerifiedTransaction } from './paystack-client.ts';

// Online payment through Paystack (issue 26, decision 298's "Paystack"): a checkout per click with
// our own reference, and the webhook that turns a verified charge into exactly one payment.

export const PAY_ONLINE_NOT_OFFERED = 'Online payment is not offered: pay by bank transfer';
export const NOTHING_OUTSTANDING = 'This invoice has nothing outstanding';
export const BAD_SIGNATURE = 'The signature of this event is not valid';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Our reference for a checkout: 'inv-' and 24 base32 letters (120 random bits), unguessable, and within Paystack's allowed characters. */
function newReference(): string {
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return `inv-${out}`;
}

/** Where Paystack sends the client back: the dashboard on the project, at the invoice, naming the checkout. */
function callbackUrlOf(app: FastifyInstance, projectId: string, invoiceId: string, reference: string): string {
  const url = new URL(invoiceLink(app, projectId, invoiceId));
  url.searchParams.set('paid', reference);
  return url.toString();
}

/**
 * Starts paying an issued invoice online (a client's finance member or approver): the outstanding
 * amount now, under a fresh reference of ours stored before Paystack is asked. A draft, another
 * client's invoice or a missing one is 404; nothing outstanding, or Paystack not configured, 409.
 */
export async function startCheckout(
  app: FastifyInstance,
  viewer: ScopeViewer & { email: string },
  invoiceId: string,
  who: AuditContext,
): Promise<{ authorizationUrl: string }> {
  const { row } = await visibleInvoice(app.db, viewer, invoiceId);
  if (row.status !== 'issued') throw notFound('Invoice not found');
  if (!payOnlineEnabled(app)) throw conflict(PAY_ONLINE_NOT_OFFERED);
  const now = app.clock.now();
  const balance = await invoiceBalance(app.db, invoiceId, todayIso(now));
  if (!balance || balance.outstandingKobo <= 0n) throw conflict(NOTHING_OUTSTANDING);
  const reference = newReference();
  await app.db.transaction(async (tx) => {
    await tx.insert(paystackTransactions).values({ reference, invoiceId, amountKobo: balance.outstandingKobo, initializedBy: viewer._id, createdAt: now, updatedAt: now });
    await recordAudit(tx, who, {
      action: 'payment.checkout',
      entityId: invoiceId,
      projectId: row.projectId,
      after: { invoice: row.number, amount: balance.outstandingKobo.toString(), reference },
    });
  });
  try {
    return await initializeTransaction(app, {
      email: viewer.email,
      amountKobo: balance.outstandingKobo,
      reference,
      callbackUrl: callbackUrlOf(app, row.projectId, invoiceId, reference),
      metadata: { invoiceId, invoiceNumber: row.number ?? '', projectId: row.projectId },
    });
  } catch (err) {
    // The checkout never reached Paystack's page: kept, marked failed (a late event is still judged by the verify call).
    await app.db
      .update(paystackTransactions)
      .set({ status: 'failed', lastEvent: 'initialize.failed', updatedAt: app.clock.now() })
      .where(eq(paystackTransactions.reference, reference));
    throw err;
  }
}

export type WebhookOutcome = 'ignored' | 'unknown-reference' | 'already-settled' | 'failed' | 'amount-mismatch' | 'paid';

interface ChargeEvent {
  event?: unknown;
  data?: { reference?: unknown } | null;
}

/**
 * Paystack's webhook (decision 298): the raw body's signature first (else 401, nothing stored),
 * then only `charge.success` for a reference of ours counts, judged by Paystack's verify call and
 * under the row locks of the checkout and the invoice, so a replayed or concurrent event counts once.
 * Answers the outcome and the mail to deliver after the commit.
 */
export async function handleWebhook(
  app: FastifyInstance,
  rawBody: Buffer,
  signature: string | undefined,
  address: string | null,
): Promise<{ outcome: WebhookOutcome; mailIds: string[] }> {
  const secret = app.config.PAYSTACK_SECRET_KEY;
  if (!secret) throw notFound('Online payment is not offered');
  if (!verifyPaystackSignature(rawBody, signature, secret)) {
    app.log.warn({ address, signed: signature !== undefined }, 'paystack webhook with a missing or wrong signature refused');
    throw unauthenticated(BAD_SIGNATURE);
  }
  let body: ChargeEvent;
  try {
    body = JSON.parse(rawBody.toString('utf8')) as ChargeEvent;
  } catch {
    throw new AppError('BAD_REQUEST', 'The event is not valid JSON');
  }
  if (!body || typeof body !== 'object' || body.event !== 'charge.success') return { outcome: 'ignored', mailIds: [] };
  const reference = typeof body.data?.reference === 'string' ? body.data.reference : null;
  const [known] = reference ? await app.db.select({ id: paystackTransactions.id }).from(paystackTransactions).where(eq(paystackTransactions.reference, reference)) : [];
  if (!reference || !known) {
    app.log.info({ address, reference: reference?.slice(0, 100) }, 'paystack webhook for a reference not ours ignored');
    return { outcome: 'unknown-reference', mailIds: [] };
  }
  // What Paystack's API says, not the body (a 503 here makes Paystack send the event again later).
  const verified = await verifyTransaction(app, reference);
  // The payload is kept as the last event; text PostgreSQL cannot store is left out (it never decides anything).
  const payload = findUnstorableText(body, 'body') ? null : body;
  return settle(app, reference, verified, payload, address);
}

async function settle(
  app: FastifyInstance,
  reference: string,
  verified: VerifiedTransaction,
  payload: unknown,
  address: string | null,
): Promise<{ outcome: WebhookOutcome; mailIds: string[] }> {
  return app.db.transaction(async (tx) => {
    const now = app.clock.now();
    const [checkout] = await tx.select().from(paystackTransactions).where(eq(paystackTransactions.reference, reference)).for('update');
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, checkout.invoiceId)).for('update');
    // Settled before (a replay, or the concurrent twin that locked first): counted once already.
    if (checkout.status === 'paid' || checkout.status === 'amount_mismatch') return { outcome: 'already-settled' as const, mailIds: [] };
    const seen = { lastEvent: 'charge.success', lastPayload: payload, paystackId: verified.id || null, updatedAt: now };
    if (verified.status !== 'success') {
      await tx.update(paystackTransactions).set({ ...seen, status: 'failed' }).where(eq(paystackTransactions.id, checkout.id));
      app.log.info({ reference, paystackStatus: verified.status.slice(0, 40) }, 'paystack event for a charge its API does not confirm');
      return { outcome: 'failed' as const, mailIds: [] };
    }
    const today = todayIso(now);
    const balance = (await invoiceBalance(tx, invoice.id, today))!;
    const exact = verified.currency === 'NGN' && verified.amountKobo === checkout.amountKobo;
    // More than is outstanding now (staff recorded a transfer meanwhile, or another checkout paid): never an overpayment in silence.
    if (!exact || verified.amountKobo > balance.outstandingKobo) {
      await tx
        .update(paystackTransactions)
        .set({ ...seen, status: 'amount_mismatch', paidAmountKobo: verified.amountKobo, verifiedAt: now })
        .where(eq(paystackTransactions.id, checkout.id));
      const mail = paymentMismatchMail(app, {
        number: invoice.number ?? '',
        projectName: balance.projectName,
        reference,
        askedKobo: exact ? balance.outstandingKobo : checkout.amountKobo,
        paidKobo: verified.amountKobo,
        currency: verified.currency.slice(0, 10),
      });
      const mailId = await queueMail(tx, app, mail);
      app.log.warn({ reference, asked: checkout.amountKobo.toString(), paid: verified.amountKobo.toString(), currency: verified.currency.slice(0, 10) }, 'paystack payment flagged: the amount differs');
      return { outcome: 'amount-mismatch' as const, mailIds: [mailId] };
    }
    const who: AuditContext = { ...SYSTEM_ACTOR, actorLabel: 'paystack', address, at: now };
    const { paymentId, mailIds } = await insertPayment(
      app,
      tx,
      {
        invoiceId: invoice.id,
        amountKobo: verified.amountKobo,
        receivedOn: today,
        method: 'paystack',
        reference: verified.id || reference,
        paystackReference: reference,
        note: '',
        recordedBy: null,
      },
      who,
    );
    await tx
      .update(paystackTransactions)
      .set({ ...seen, status: 'paid', paidAmountKobo: verified.amountKobo, paymentId, verifiedAt: now })
      .where(eq(paystackTransactions.id, checkout.id));
    return { outcome: 'paid' as const, mailIds };
  });
}
