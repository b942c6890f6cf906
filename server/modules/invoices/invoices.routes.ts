import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../common/errors.ts';
import { todayIso } from '../../../common/dates.ts';
import {
  createInvoiceBodySchema,
  creditNoteBodySchema,
  financeIdParamsSchema,
  financeOverviewResponseSchema,
  financeProjectParamsSchema,
  financeSettingsBodySchema,
  financeSettingsResponseSchema,
  invoiceResponseSchema,
  projectFinanceResponseSchema,
  putPlanBodySchema,
  recordPaymentBodySchema,
  updateInvoiceBodySchema,
  voidPaymentBodySchema,
} from '../../../common/schemas/invoices.ts';
import { okResponse } from '../../../common/schemas/ok-response.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { recordRouteErrors as errors } from '../../lib/archive-routes.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { deliverQueuedMail } from '../../mail/mailer.ts';
import { auditOf } from '../audit/audit.ts';
import { creditNotePdf, invoicePdf, receiptPdf } from './finance-documents.ts';
import { financeCsv, financeOverview } from './finance-overview.ts';
import { financeSettingsOf, projectFinance } from './finance-read.ts';
import { issueCreditNote } from './credit-notes.service.ts';
import { saveFinanceSettings } from './finance-settings.service.ts';
import { issueInvoice } from './invoice-issue.service.ts';
import { createInvoice, deleteInvoice, updateInvoice } from './invoices.service.ts';
import { replacePlan } from './payment-plan.service.ts';
import { recordPayment, voidPayment } from './payments.service.ts';

const withConflict = { 409: apiErrorSchema, ...errors };

// The payment plan (issue 26, decision 298): staff with finance.read see plans, invoices and the
// overview; finance.write changes them; the client's people with the member permission finance.read
// (its admins, approvers and finance members) see the plan and the issued invoices of their projects.
const invoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const later = afterAnswer(app);
  const deliver = (ids: string[]) => {
    if (ids.length) later(deliverQueuedMail(app, ids), 'finance mail failed');
  };
  const pdfReply = (reply: FastifyReply, doc: { fileName: string; pdf: Buffer }) =>
    reply.type('application/pdf').header('Content-Disposition', contentDisposition('attachment', doc.fileName)).header('Cache-Control', 'private, no-store').send(doc.pdf);

  app.get(
    '/finance/project/:projectId',
    {
      config: { access: { staff: 'finance.read', client: 'finance.read' } },
      // A project with many invoices answers some hundreds of kilobytes: written by fast-json-stringify (decision 153).
      serializerCompiler: fastSerializerCompiler,
      schema: {
        tags: ['finance'],
        summary: "A project's payment plan, invoices (a client: issued ones), payments and balance",
        params: financeProjectParamsSchema,
        response: { 200: projectFinanceResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await projectFinance(app, request.user!, request.params.projectId)) }),
  );

  app.put(
    '/finance/project/:projectId/plan',
    {
      config: { access: { staff: 'finance.write' } },
      schema: {
        tags: ['finance'],
        summary: "Replace a project's payment plan (milestones keep their ids; one with an invoice cannot be removed)",
        params: financeProjectParamsSchema,
        body: putPlanBodySchema,
        response: { 200: projectFinanceResponseSchema, ...withConflict },
      },
    },
    async (request) => {
      await replacePlan(app, request.user!, request.params.projectId, request.body, auditOf(request));
      return { success: true as const, ...(await projectFinance(app, request.user!, request.params.projectId)) };
    },
  );

  app.post(
    '/finance/project/:projectId/invoices',
    {
      config: { access: { staff: 'finance.write' } },
      schema: {
        tags: ['finance'],
        summary: 'Draft an invoice on a milestone (its amount as the line) or with lines of its own',
        params: financeProjectParamsSchema,
        body: createInvoiceBodySchema,
        response: { 201: invoiceResponseSchema, ...withConflict },
      },
    },
    async (request, reply) => {
      const invoice = await createInvoice(app, request.user!, request.params.projectId, request.body, auditOf(request));
      return reply.status(201).send({ success: true as const, invoice });
    },
  );

  app.patch(
    '/invoices/:id',
    {
      config: { access: { staff: 'finance.write' } },
      schema: { tags: ['finance'], summary: 'Correct a draft invoice', params: financeIdParamsSchema, body: updateInvoiceBodySchema, response: { 200: invoiceResponseSchema, ...withConflict } },
    },
    async (request) => ({ success: true as const, invoice: await updateInvoice(app, request.user!, request.params.id, request.body, auditOf(request)) }),
  );

  app.delete(
    '/invoices/:id',
    {
      config: { access: { staff: 'finance.write' } },
      schema: { tags: ['finance'], summary: 'Delete a draft invoice (an issued one is credited instead)', params: financeIdParamsSchema, response: { 200: okResponse({}), ...withConflict } },
    },
    async (request) => {
      await deleteInvoice(app, request.user!, request.params.id, auditOf(request));
      return { success: true as const };
    },
  );

  app.post(
    '/invoices/:id/issue',
    {
      config: { access: { staff: 'finance.write' } },
      schema: {
        tags: ['finance'],
        summary: 'Issue a draft invoice: numbered without gaps, dated, frozen, and mailed to the client',
        params: financeIdParamsSchema,
        response: { 200: invoiceResponseSchema, ...withConflict },
      },
    },
    async (request) => {
      const { invoice, mailIds } = await issueInvoice(app, request.user!, request.params.id, auditOf(request));
      deliver(mailIds);
      return { success: true as const, invoice };
    },
  );

  app.post(
    '/invoices/:id/credit-notes',
    {
      config: { access: { staff: 'finance.write' } },
      schema: {
        tags: ['finance'],
        summary: 'Issue a credit note against an issued invoice, line by line',
        params: financeIdParamsSchema,
        body: creditNoteBodySchema,
        response: { 201: invoiceResponseSchema, ...withConflict },
      },
    },
    async (request, reply) => {
      const invoice = await issueCreditNote(app, request.user!, request.params.id, request.body, auditOf(request));
      return reply.status(201).send({ success: true as const, invoice });
    },
  );

  app.post(
    '/invoices/:id/payments',
    {
      config: { access: { staff: 'finance.write' } },
      schema: {
        tags: ['finance'],
        summary: 'Record a payment received (transfer, cheque, cash; part payments allowed); the client gets a receipt',
        params: financeIdParamsSchema,
        body: recordPaymentBodySchema,
        response: { 201: invoiceResponseSchema, ...withConflict },
      },
    },
    async (request, reply) => {
      const { invoice, mailIds } = await recordPayment(app, request.user!, request.params.id, request.body, auditOf(request));
      deliver(mailIds);
      return reply.status(201).send({ success: true as const, invoice });
    },
  );

  app.post(
    '/payments/:id/void',
    {
      config: { access: { staff: 'finance.write' } },
      schema: {
        tags: ['finance'],
        summary: 'Void a payment entered by mistake (kept, counting nothing)',
        params: financeIdParamsSchema,
        body: voidPaymentBodySchema,
        response: { 200: invoiceResponseSchema, ...withConflict },
      },
    },
    async (request) => ({ success: true as const, invoice: await voidPayment(app, request.user!, request.params.id, request.body.reason, auditOf(request)) }),
  );

  app.get(
    '/invoices/:id/pdf',
    {
      config: { access: { staff: 'finance.read', client: 'finance.read' } },
      schema: { tags: ['finance'], summary: "An issued invoice's PDF", params: financeIdParamsSchema, produces: ['application/pdf'] },
    },
    async (request, reply) => pdfReply(reply, await invoicePdf(app, request.user!, request.params.id)),
  );

  app.get(
    '/credit-notes/:id/pdf',
    {
      config: { access: { staff: 'finance.read', client: 'finance.read' } },
      schema: { tags: ['finance'], summary: "A credit note's PDF", params: financeIdParamsSchema, produces: ['application/pdf'] },
    },
    async (request, reply) => pdfReply(reply, await creditNotePdf(app, request.user!, request.params.id)),
  );

  app.get(
    '/payments/:id/receipt',
    {
      config: { access: { staff: 'finance.read', client: 'finance.read' } },
      schema: { tags: ['finance'], summary: "A payment's receipt as a PDF", params: financeIdParamsSchema, produces: ['application/pdf'] },
    },
    async (request, reply) => pdfReply(reply, await receiptPdf(app, request.user!, request.params.id)),
  );

  app.get(
    '/finance/overview',
    {
      config: { access: { staff: 'finance.read' } },
      schema: {
        tags: ['finance'],
        summary: 'Invoiced, received and outstanding this month and this year; overdue invoices oldest first',
        response: { 200: financeOverviewResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await financeOverview(app, request.user!)) }),
  );

  app.get(
    '/finance/invoices.csv',
    {
      config: { access: { staff: 'finance.read' } },
      schema: { tags: ['finance'], summary: 'Every issued invoice with its position, overdue first, as CSV', produces: ['text/csv'] },
    },
    async (request, reply) =>
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="invoices-${todayIso(app.clock.now())}.csv"`)
        .header('Cache-Control', 'no-store')
        .send(await financeCsv(app, request.user!)),
  );

  app.get(
    '/finance/settings',
    {
      config: { access: { staff: 'settings.manage' } },
      schema: { tags: ['finance'], summary: 'The invoice settings: prefixes, VAT rate, payment terms, TIN and bank details', response: { 200: financeSettingsResponseSchema, ...errors } },
    },
    async () => ({ success: true as const, settings: settingsOut(await financeSettingsOf(app.db)) }),
  );

  app.put(
    '/finance/settings',
    {
      config: { access: { staff: 'settings.manage' } },
      schema: {
        tags: ['finance'],
        summary: 'Save the invoice settings (documents already issued keep theirs)',
        body: financeSettingsBodySchema,
        response: { 200: financeSettingsResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, settings: settingsOut(await saveFinanceSettings(app, request.body, auditOf(request))) }),
  );
};

function settingsOut(s: Awaited<ReturnType<typeof financeSettingsOf>>) {
  return {
    invoicePrefix: s.invoicePrefix,
    creditNotePrefix: s.creditNotePrefix,
    vatRateBp: s.vatRateBp,
    paymentTermsDays: s.paymentTermsDays,
    taxId: s.taxId,
    bankName: s.bankName,
    bankAccountName: s.bankAccountName,
    bankAccountNumber: s.bankAccountNumber,
    updatedAt: s.updatedAt ? s.updatedAt.toISOString() : null,
  };
}

export default invoicesRoutes;
