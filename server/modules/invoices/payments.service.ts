import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict, notFound } from '../../../common/errors.ts';
import { addDays, todayIso } from '../../../common/dates.ts';
import { formatKobo } from '../../../common/money.ts';
import type { Invoice, PaymentMethod } from '../../../common/schemas/invoices.ts';
import { payments } from '../../db/schema/payments.ts';
import { publishChange } from '../../events/portal-events.ts';
import { queueMail } from '../../mail/mailer.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { financePeopleOf, receiptMail } from './finance-mail.ts';
import { invoiceBalance } from './finance-read.ts';
import { invoiceOut, lockInvoice, NOT_ISSUED, type Tx } from './invoice-access.ts';

export interface PaymentInput {
  invoiceId: string;
  amountKobo: bigint;
  receivedOn: string;
  method: PaymentMethod;
  reference: string;
  paystackReference: string | null;
  note: string;
  recordedBy: string | null;
}

/**
 * Inserts a payment in the caller's transaction, which holds the invoice row FOR UPDATE, and queues
 * the receipt to the client's finance people (the caller delivers after the commit): the one way a
 * payment is written, by staff or by Paystack's webhook.
 */
export async function insertPayment(app: FastifyInstance, tx: Tx, input: PaymentInput, who: AuditContext): Promise<{ paymentId: string; mailIds: string[] }> {
  const now = app.clock.now();
  const [payment] = await tx
    .insert(payments)
    .values({
      invoiceId: input.invoiceId,
      amountKobo: input.amountKobo,
      receivedOn: input.receivedOn,
      method: input.method,
      reference: input.reference,
      paystackReference: input.paystackReference,
      note: input.note,
      recordedBy: input.recordedBy,
      recordedAt: now,
    })
    .returning({ id: payments.id });
  const balance = (await invoiceBalance(tx, input.invoiceId, todayIso(now)))!;
  await publishChange(tx, { type: 'invoice.updated', clientId: balance.clientId, projectId: balance.row.projectId, id: input.invoiceId });
  await recordAudit(tx, who, {
    action: 'payment.record',
    entityId: payment.id,
    projectId: balance.row.projectId,
    after: { invoice: balance.row.number, amount: input.amountKobo.toString(), receivedOn: input.receivedOn, method: input.method, reference: input.reference },
  });
  const mailIds: string[] = [];
  for (const person of await financePeopleOf(tx, balance.row.projectId)) {
    mailIds.push(
      await queueMail(
        tx,
        app,
        receiptMail(app, person, {
          projectId: balance.row.projectId,
          projectName: balance.projectName,
          invoiceId: input.invoiceId,
          number: balance.row.number!,
          grossKobo: balance.row.grossKobo,
          dueDate: balance.row.dueDate!,
          amountKobo: input.amountKobo,
          receivedOn: input.receivedOn,
          method: input.method,
          outstandingKobo: balance.outstandingKobo,
        }),
      ),
    );
  }
  return { paymentId: payment.id, mailIds };
}

/**
 * Records a payment staff received (transfer, cheque, cash): part payments are allowed, more than
 * the outstanding amount is refused (a typing mistake is likelier than an overpayment, which staff
 * record as the outstanding amount and settle outside the invoice).
 */
export async function recordPayment(
  app: FastifyInstance,
  viewer: ScopeViewer,
  invoiceId: string,
  input: { amount: string; receivedOn: string; method: PaymentMethod; reference: string; note: string },
  who: AuditContext,
): Promise<{ invoice: Invoice; mailIds: string[] }> {
  return app.db.transaction(async (tx) => {
    const { row } = await lockInvoice(tx, viewer, invoiceId);
    if (row.status !== 'issued') throw conflict(NOT_ISSUED);
    const today = todayIso(app.clock.now());
    if (input.receivedOn > today) throw badRequest('The payment date is in the future');
    if (row.issueDate && input.receivedOn < addDays(row.issueDate, -366)) throw badRequest('The payment date is more than a year before the invoice');
    const balance = (await invoiceBalance(tx, invoiceId, today))!;
    const amountKobo = BigInt(input.amount);
    if (balance.outstandingKobo === 0n) throw conflict('This invoice has nothing outstanding');
    if (amountKobo > balance.outstandingKobo) throw conflict(`The amount is more than the ${formatKobo(balance.outstandingKobo)} outstanding`);
    const { mailIds } = await insertPayment(
      app,
      tx,
      { invoiceId, amountKobo, receivedOn: input.receivedOn, method: input.method, reference: input.reference, paystackReference: null, note: input.note, recordedBy: who.actorId },
      who,
    );
    return { invoice: await invoiceOut(app, tx, invoiceId), mailIds };
  });
}

/** Voids a payment entered by mistake (staff): kept, with who, when and why, and counting nothing. */
export async function voidPayment(app: FastifyInstance, viewer: ScopeViewer, paymentId: string, reason: string, who: AuditContext): Promise<Invoice> {
  return app.db.transaction(async (tx) => {
    const [found] = await tx.select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.id, paymentId));
    if (!found) throw notFound('Payment not found');
    const { row, clientId } = await lockInvoice(tx, viewer, found.invoiceId);
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (payment.voidedAt) throw conflict('This payment is already voided');
    await tx.update(payments).set({ voidedAt: app.clock.now(), voidedBy: who.actorId, voidReason: reason }).where(eq(payments.id, paymentId));
    await publishChange(tx, { type: 'invoice.updated', clientId, projectId: row.projectId, id: row.id });
    await recordAudit(tx, who, {
      action: 'payment.void',
      entityId: paymentId,
      projectId: row.projectId,
      before: { amount: payment.amountKobo.toString(), receivedOn: payment.receivedOn, reference: payment.reference },
      after: { voided: true, reason },
    });
    return invoiceOut(app, tx, row.id);
  });
}
