import type { FastifyInstance } from 'fastify';
import { financeSettings } from '../../db/schema/payments.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { financeSettingsOf } from './finance-read.ts';

export interface SettingsInput {
  invoicePrefix: string;
  creditNotePrefix: string;
  vatRate: number;
  paymentTermsDays: number;
  taxId: string;
  bankName: string;
  bankAccountName: string;
  bankAccountNumber: string;
}

/** Saves the finance settings (staff with settings.manage); documents already issued keep theirs. */
export async function saveFinanceSettings(app: FastifyInstance, input: SettingsInput, who: AuditContext) {
  return app.db.transaction(async (tx) => {
    const before = await financeSettingsOf(tx);
    const values = {
      invoicePrefix: input.invoicePrefix,
      creditNotePrefix: input.creditNotePrefix,
      vatRateBp: input.vatRate,
      paymentTermsDays: input.paymentTermsDays,
      taxId: input.taxId,
      bankName: input.bankName,
      bankAccountName: input.bankAccountName,
      bankAccountNumber: input.bankAccountNumber,
      updatedAt: app.clock.now(),
      updatedBy: who.actorId,
    };
    await tx.insert(financeSettings).values({ id: 1, ...values }).onConflictDoUpdate({ target: financeSettings.id, set: values });
    const { updatedAt: _a, ...was } = before;
    const { updatedAt: _b, updatedBy: _c, ...now } = values;
    await recordAudit(tx, who, { action: 'finance.settings', entityId: 'finance-settings', before: was, after: now });
    return financeSettingsOf(tx);
  });
}
