import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.ts';
import { vendorApplications } from '../../db/schema/vendors.ts';
import { formToken, multipartBody } from '../../../tests/helpers/forms.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { TYPED_ADDRESS_MAILS_PER_DAY } from '../../mail/typed-address.ts';
import { VENDOR_ACK_PER_SENDER } from './vendors.service.ts';

const VENDOR_ACK_PER_RECIPIENT = { limit: TYPED_ADDRESS_MAILS_PER_DAY['vendor-application-ack'] };

// Decision 116: the public vendor form must not be a relay for someone else's words to any address.

const PHISH = 'URGENT: your account is locked, sign in at https://evil.example/login now';
const fields = (email: string) => ({
  companyName: PHISH,
  companyPhone: '+234 800 111 2222',
  companyAddress: '1 Wharf Road',
  companyEmail: email,
  contactPersonName: `Dear customer, ${PHISH}`,
  contactPersonEmail: email,
  contactPersonPhone: '+234 800 333 4444',
  businessType: 'Supplier',
  compliant: 'Yes',
  experience: PHISH,
  taxId: 'TIN-1',
  registrationNumber: 'RC 1',
  bankDetails: PHISH,
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ STAFF_EMAIL: 'staff@example.test' });
});
afterAll(async () => t.close());

async function submit(email: string, ip: string) {
  const body = await multipartBody({ formToken: await formToken(t, 'vendor'), homepageUrl: '', ...fields(email) });
  return t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: ip });
}
const acksTo = (email: string) => t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, 'vendor-application-ack')));

describe('the vendor acknowledgement', () => {
  it('carries no text from the form, only our words and the reference', async () => {
    const res = await submit('victim@example.test', '192.0.2.10');
    expect(res.statusCode).toBe(200);
    const [ack] = await acksTo('victim@example.test');
    expect(ack.subject).toBe(`We received your vendor registration (${res.json().reference})`);
    for (const text of [ack.subject, ack.text, ack.html ?? '']) {
      expect(text).not.toContain('evil.example');
      expect(text).not.toContain('URGENT');
      expect(text).not.toContain('Dear customer');
    }
  });

  it(`goes to one address at most ${VENDOR_ACK_PER_RECIPIENT.limit} times a day, whoever sends; the applications are still stored`, async () => {
    for (let i = 0; i < 5; i++) expect((await submit('target@example.test', `192.0.2.${20 + i}`)).statusCode).toBe(200);
    expect(await acksTo('target@example.test')).toHaveLength(VENDOR_ACK_PER_RECIPIENT.limit);
    expect(await t.database.db.select().from(vendorApplications).where(eq(vendorApplications.companyEmail, 'target@example.test'))).toHaveLength(5);
  });

  it(`is sent at most ${VENDOR_ACK_PER_SENDER.limit} times an hour from one sending address`, async () => {
    const emails = Array.from({ length: 5 }, (_, i) => `spray-${i}@example.test`);
    for (const email of emails) expect((await submit(email, '192.0.2.40')).statusCode).toBe(200);
    let sent = 0;
    for (const email of emails) sent += (await acksTo(email)).length;
    expect(sent).toBe(VENDOR_ACK_PER_SENDER.limit);
  });
});
