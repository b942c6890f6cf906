import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict } from '../../../common/errors.ts';
import { addDays, todayIso } from '../../../common/dates.ts';
import type { Invoice } from '../../../common/schemas/invoices.ts';
import { projects } from '../../db/schema/projects.ts';
import { clientOrganisations, users } from '../../db/schema/users.ts';
import { invoices } from '../../db/schema/payments.ts';
import { publishChange } from '../../events/portal-events.ts';
import { queueMail } from '../../mail/mailer.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { publishedCompany } from '../site-content/published-company.ts';
import { allocateDocumentNumber } from './document-numbers.ts';
import { financePeopleOf, invoiceIssuedMail } from './finance-mail.ts';
import { financeSettingsOf } from './finance-read.ts';
import { invoiceOut, lockInvoice } from './invoice-access.ts';

// Issuing a draft (issue 26, decision 298): numbered, dated and frozen, with the parties and the bank
// as they were that day.

/** What an invoice cannot be issued without (the settings staff fill in once). */
function missingForIssue(settings: Awaited<ReturnType<typeof financeSettingsOf>>): string | null {
  if (!settings.taxId) return 'Set the company’s TIN in the finance settings before issuing invoices';
  if (!settings.bankName || !settings.bankAccountName || !settings.bankAccountNumber) return 'Set the bank details in the finance settings before issuing invoices';
  return null;
}

/**
 * Issues a draft (staff): it takes the next number of the year, today's date, its due date (the
 * draft's, or today plus the payment terms), and snapshots of the seller, the buyer and the bank;
 * from then on it never changes. The client's finance people are mailed a link (the caller delivers).
 */
export async function issueInvoice(app: FastifyInstance, viewer: ScopeViewer, id: string, who: AuditContext): Promise<{ invoice: Invoice; mailIds: string[] }> {
  return app.db.transaction(async (tx) => {
    const { row, clientId } = await lockInvoice(tx, viewer, id);
    if (row.status !== 'draft') throw conflict('This invoice is already issued');
    const settings = await financeSettingsOf(tx);
    const missing = missingForIssue(settings);
    if (missing) throw conflict(missing);
    if (row.grossKobo === 0n) throw conflict('An invoice of nothing cannot be issued');
    const today = todayIso(app.clock.now());
    const dueDate = row.dueDate ?? addDays(today, settings.paymentTermsDays);
    if (dueDate < today) throw conflict('The due date is before today: change it first');
    const [project] = await tx
      .select({ name: projects.name, organisation: clientOrganisations.name, email: users.email })
      .from(projects)
      .innerJoin(users, eq(users.id, projects.clientId))
      .leftJoin(clientOrganisations, eq(clientOrganisations.id, projects.clientId))
      .where(eq(projects.id, row.projectId));
    const company = publishedCompany(app);
    const seller = { name: company.name, address: company.address, registrationNumber: company.registrationNumber, taxId: settings.taxId, email: company.email, phone: company.phone };
    const buyer = { name: project.organisation ?? '', email: project.email };
    const bank = { bankName: settings.bankName, accountName: settings.bankAccountName, accountNumber: settings.bankAccountNumber };
    // The number last: everything that can refuse has run (decision 298), so the counter's lock is short.
    const numbered = await allocateDocumentNumber(tx, 'invoice', today);
    const now = app.clock.now();
    await tx
      .update(invoices)
      .set({ status: 'issued', number: numbered.number, numberYear: numbered.year, numberSeq: numbered.sequence, issueDate: today, dueDate, seller, buyer, bank, issuedAt: now, issuedBy: who.actorId, updatedAt: now })
      .where(eq(invoices.id, id));
    await publishChange(tx, { type: 'invoice.issued', clientId, projectId: row.projectId, id });
    await recordAudit(tx, who, { action: 'invoice.issue', entityId: id, projectId: row.projectId, after: { number: numbered.number, gross: row.grossKobo.toString(), dueDate } });
    const mailIds: string[] = [];
    for (const person of await financePeopleOf(tx, row.projectId)) {
      mailIds.push(await queueMail(tx, app, invoiceIssuedMail(app, person, { projectId: row.projectId, projectName: project.name, invoiceId: id, number: numbered.number, grossKobo: row.grossKobo, dueDate })));
    }
    return { invoice: await invoiceOut(app, tx, id), mailIds };
  });
}
