import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.ts';
import { appWithProject } from '../../../tests/helpers/actors.ts';
import { issuedInvoice, recordTransfer, saveFinanceSettings } from '../../../tests/helpers/finance.ts';
import { createProjectVia, type Actor } from '../../../tests/helpers/portal.ts';
import { createUser, type TestApp } from '../../../tests/helpers/test-app.ts';
import { appOnSameDatabase } from '../../../tests/helpers/second-app.ts';
import { sendInvoiceReminders } from './invoice-reminders.ts';

// Invoice reminders (issue 26): once before the due date and once when overdue, only while something
// is owed, to the client's people who see invoices, however many processes tick at once. Fake clock.

let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; code: string; name: string };
let other: Awaited<ReturnType<typeof appOnSameDatabase>>;
const DAY = 86_400_000;

beforeAll(async () => {
  ({ t, admin, client, project } = await appWithProject('Onne Warehouse'));
  await createUser(t, { role: 'client', name: 'Funmi Finance', email: 'finance@example.test', organisationId: client.id, memberRole: 'finance' });
  await createUser(t, { role: 'client', name: 'Plain Member', email: 'member@example.test', organisationId: client.id, memberRole: 'member' });
  other = await appOnSameDatabase(t, { ADMIN_MFA_REQUIRED: 'false' });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const reminders = async () => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invoice-notification'))).filter((m) => /Reminder|overdue/.test(m.subject));
const tickEverywhere = () => Promise.all([sendInvoiceReminders(t.app), sendInvoiceReminders(other.app), sendInvoiceReminders(t.app)]);

describe('invoice reminders', () => {
  it('reminds three days before and once overdue, never twice, never for a paid invoice', async () => {
    // The clock: 22 Nov 2026 in Lagos. One invoice due 27 Nov; another due the same day, paid in full.
    await saveFinanceSettings(t, admin.headers);
    const owing = await issuedInvoice(t, admin.headers, project._id, { lines: [{ description: 'Works', quantity: 1, unitPrice: '1,000.00' }], dueDate: '2026-11-27' });
    const second = await createProjectVia(t, admin, client.id, { name: 'Paid Up Yard' });
    const paid = await issuedInvoice(t, admin.headers, second._id, { lines: [{ description: 'Works', quantity: 1, unitPrice: '100.00' }], dueDate: '2026-11-27' });
    await recordTransfer(t, admin.headers, paid._id, '107.50');

    // 22 Nov: five days ahead, nothing.
    await tickEverywhere();
    expect(await reminders()).toEqual([]);

    // 24 Nov: three days ahead: one reminder to each of the client's finance people, whatever the tickers.
    t.clock.advance(2 * DAY);
    await tickEverywhere();
    await tickEverywhere();
    let sent = await reminders();
    expect(sent.map((m) => m.to).sort()).toEqual(['finance@example.test', expect.any(String)].sort());
    expect(sent.every((m) => m.subject.includes(owing.number) && m.subject.startsWith('Reminder'))).toBe(true);
    expect(sent.some((m) => m.to === 'member@example.test')).toBe(false);

    // 27 Nov, the due day: nothing more.
    t.clock.advance(3 * DAY);
    await tickEverywhere();
    expect(await reminders()).toHaveLength(2);

    // 28 Nov: overdue, once.
    t.clock.advance(DAY);
    await tickEverywhere();
    await tickEverywhere();
    sent = await reminders();
    expect(sent).toHaveLength(4);
    expect(sent.filter((m) => m.subject.includes('is overdue')).map((m) => m.subject)[0]).toContain(owing.number);
    expect(sent.some((m) => m.subject.includes(paid.number))).toBe(false);
  });
});
