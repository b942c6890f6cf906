import { createHmac } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paystackTransactions, payments } from '../../db/schema/payments.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { settleAfterAnswer } from '../../lib/after-answer.ts';
import { startFakePaystack, type FakePaystack } from '../../../tests/helpers/fake-paystack.ts';
import { invoiceOn } from '../../../tests/helpers/issued-invoice.ts';
import { actor, clientWithProject, SAME_ORIGIN } from '../../../tests/helpers/portal.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { koboOf, PAYSTACK_UNAVAILABLE, verifyPaystackSignature } from './paystack-client.ts';
import { BAD_SIGNATURE, NOTHING_OUTSTANDING, PAY_ONLINE_NOT_OFFERED } from './paystack.service.ts';

// Online payment through Paystack (decision 298), against a fake Paystack on a local port: nothing
// of ours is bypassed, the boundary is HTTP both ways.

const SECRET = 'sk_test_paystack_tests_0123456789';
let fake: FakePaystack;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakePaystack({ secretKey: SECRET });
  t = await createTestApp({ PAYSTACK_SECRET_KEY: SECRET, PAYSTACK_API_URL: fake.url });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A client (its organisation's admin, so a finance reader) with a project and an issued invoice. */
async function payer(unitPriceKobo = 1_000_000n) {
  const client = await clientWithProject(t, 'Paystack');
  const invoice = await invoiceOn(t, client.projectId, { unitPriceKobo });
  return { ...client, headers: { cookie: client.auth.cookie, origin: SAME_ORIGIN }, invoice };
}

const payOnline = (headers: Record<string, string>, invoiceId: string) =>
  t.app.inject({ method: 'POST', url: `/api/invoices/${invoiceId}/pay-online`, headers });

/** Starts a checkout as the payer and answers its reference. */
async function checkout(p: Awaited<ReturnType<typeof payer>>): Promise<string> {
  const res = await payOnline(p.headers, p.invoice.id);
  expect(res.statusCode, res.body).toBe(200);
  return fake.initialized.at(-1)!.body.reference;
}

const deliver = (body: string, signature: string | undefined, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/paystack/webhook',
    remoteAddress: '52.31.139.75',
    headers: { 'content-type': 'application/json', ...(signature !== undefined ? { 'x-paystack-signature': signature } : {}), ...headers },
    payload: body,
  });

const paymentsOf = (invoiceId: string) => t.database.db.select().from(payments).where(eq(payments.invoiceId, invoiceId));
const checkoutOf = async (reference: string) =>
  (await t.database.db.select().from(paystackTransactions).where(eq(paystackTransactions.reference, reference)))[0];
const staffMismatchMails = (reference: string) =>
  t.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, t.config.STAFF_EMAIL), eq(mailOutbox.kind, 'invoice-notification')))
    .then((rows) => rows.filter((r) => r.text.includes(reference)));

describe('verifyPaystackSignature', () => {
  const body = Buffer.from('{"event":"charge.success","data":{"reference":"inv-a","amount":1075000}}');
  const good = createHmac('sha512', SECRET).update(body).digest('hex');

  it('accepts the HMAC-SHA512 of the raw body with the secret key, in either case of hex', () => {
    expect(verifyPaystackSignature(body, good, SECRET)).toBe(true);
    expect(verifyPaystackSignature(body, good.toUpperCase(), SECRET)).toBe(true);
  });

  it('refuses another key, another body, a cut or missing header and non-hex', () => {
    expect(verifyPaystackSignature(body, createHmac('sha512', 'sk_test_other_key_000').update(body).digest('hex'), SECRET)).toBe(false);
    expect(verifyPaystackSignature(Buffer.from(body.toString().replace('1075000', '1')), good, SECRET)).toBe(false);
    expect(verifyPaystackSignature(body, good.slice(0, 64), SECRET)).toBe(false);
    expect(verifyPaystackSignature(body, undefined, SECRET)).toBe(false);
    expect(verifyPaystackSignature(body, '', SECRET)).toBe(false);
    expect(verifyPaystackSignature(body, 'z'.repeat(128), SECRET)).toBe(false);
    // The SHA-256 HMAC (64 hex digits) of the same body is not the signature either.
    expect(verifyPaystackSignature(body, createHmac('sha256', SECRET).update(body).digest('hex'), SECRET)).toBe(false);
  });
});

describe('koboOf', () => {
  it('reads an integer amount exactly and refuses fractions, negatives and unsafe floats', () => {
    expect(koboOf(1_075_000)).toBe(1_075_000n);
    expect(koboOf('12345678901234567')).toBe(12_345_678_901_234_567n);
    expect(koboOf(10.5)).toBeNull();
    expect(koboOf(-1)).toBeNull();
    expect(koboOf(2 ** 60)).toBeNull();
    expect(koboOf('1e5')).toBeNull();
    expect(koboOf(null)).toBeNull();
  });
});

describe('POST /api/invoices/:id/pay-online', () => {
  it('stores a checkout for the outstanding amount under our reference and answers Paystack’s page', async () => {
    const p = await payer();
    const res = await payOnline(p.headers, p.invoice.id);
    expect(res.statusCode, res.body).toBe(200);
    const init = fake.initialized.at(-1)!;
    const reference = init.body.reference;
    expect(reference).toMatch(/^inv-[a-z2-7]{24}$/);
    expect(res.json()).toEqual({ success: true, authorizationUrl: `${fake.url}/checkout/${reference}` });
    expect(init.authorization).toBe(`Bearer ${SECRET}`);
    expect(init.body).toMatchObject({ amount: p.invoice.grossKobo.toString(), currency: 'NGN', channels: ['card', 'bank_transfer', 'ussd', 'bank'] });
    expect(init.body.email).toMatch(/@example\.test$/);
    expect(init.body.metadata).toMatchObject({ invoiceId: p.invoice.id, projectId: p.projectId });
    const callback = new URL(init.body.callback_url);
    expect(callback.pathname).toBe('/s/client/dashboard');
    expect(callback.searchParams.get('project')).toBe(p.projectId);
    expect(callback.searchParams.get('paid')).toBe(reference);
    expect(callback.hash).toBe(`#invoice-${p.invoice.id}`);
    expect(await checkoutOf(reference)).toMatchObject({ invoiceId: p.invoice.id, amountKobo: p.invoice.grossKobo, status: 'initialized', initializedBy: p.id });
    // Each click is a checkout of its own.
    expect(await checkout(p)).not.toBe(reference);
  });

  it('is refused to a member without finance.read, for a draft, for another client’s invoice and when nothing is outstanding', async () => {
    const p = await payer();
    const member = await createUser(t, { role: 'client', organisationId: p.id, memberRole: 'member' });
    const memberHeaders = { cookie: (await signIn(t, member, 'client')).cookie, origin: SAME_ORIGIN };
    expect((await payOnline(memberHeaders, p.invoice.id)).statusCode).toBe(403);
    const finance = await createUser(t, { role: 'client', organisationId: p.id, memberRole: 'finance' });
    expect((await payOnline({ cookie: (await signIn(t, finance, 'client')).cookie, origin: SAME_ORIGIN }, p.invoice.id)).statusCode).toBe(200);

    const draft = await invoiceOn(t, p.projectId, { issue: false });
    const onDraft = await payOnline(p.headers, draft.id);
    expect(onDraft.statusCode).toBe(404);
    const stranger = await payer();
    const other = await payOnline(stranger.headers, p.invoice.id);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(onDraft.json().message);

    await t.database.db.insert(payments).values({ invoiceId: p.invoice.id, amountKobo: p.invoice.grossKobo, receivedOn: '2026-11-20', method: 'bank_transfer', reference: 'TRF-1' });
    const paid = await payOnline(p.headers, p.invoice.id);
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toBe(NOTHING_OUTSTANDING);
  });

  it('answers 503 with a way out when Paystack is down, and the checkout is marked failed', async () => {
    const p = await payer();
    fake.setDown(true);
    try {
      const res = await payOnline(p.headers, p.invoice.id);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(PAYSTACK_UNAVAILABLE);
    } finally {
      fake.setDown(false);
    }
    const [row] = await t.database.db.select().from(paystackTransactions).where(eq(paystackTransactions.invoiceId, p.invoice.id));
    expect(row.status).toBe('failed');
  });

  it('is not offered without PAYSTACK_SECRET_KEY', async () => {
    const plain = await createTestApp();
    try {
      const client = await clientWithProject(plain, 'NoPaystack');
      const invoice = await invoiceOn(plain, client.projectId);
      const res = await plain.app.inject({ method: 'POST', url: `/api/invoices/${invoice.id}/pay-online`, headers: { cookie: client.auth.cookie, origin: SAME_ORIGIN } });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(PAY_ONLINE_NOT_OFFERED);
      const hook = await plain.app.inject({ method: 'POST', url: '/api/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': 'a'.repeat(128) }, payload: '{}' });
      expect(hook.statusCode).toBe(404);
      expect(await plain.database.db.select().from(paystackTransactions)).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});

describe('POST /api/paystack/webhook', () => {
  it('turns a verified charge into one payment, and a replay counts nothing more', async () => {
    const p = await payer();
    const reference = await checkout(p);
    fake.setOutcome(reference, { status: 'success' });
    const event = fake.chargeEvent(reference);
    const res = await deliver(event.body, event.signature);
    expect(res.statusCode, res.body).toBe(200);
    expect(fake.verified).toContain(reference);
    const [payment] = await paymentsOf(p.invoice.id);
    expect(payment).toMatchObject({ amountKobo: p.invoice.grossKobo, method: 'paystack', paystackReference: reference, receivedOn: '2026-11-22', recordedBy: null });
    expect(payment.reference).toMatch(/^\d+$/);
    expect(await checkoutOf(reference)).toMatchObject({ status: 'paid', paymentId: payment.id, paidAmountKobo: p.invoice.grossKobo, lastEvent: 'charge.success' });
    expect((await checkoutOf(reference)).verifiedAt).not.toBeNull();

    const again = await deliver(event.body, event.signature);
    expect(again.statusCode).toBe(200);
    expect(await paymentsOf(p.invoice.id)).toHaveLength(1);
    // The receipt went to the client's finance people.
    await settleAfterAnswer(t.app);
    const receipts = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invoice-notification'));
    expect(receipts.filter((m) => m.to !== t.config.STAFF_EMAIL && m.text.includes(p.invoice.id)).length).toBeGreaterThan(0);
  });

  it('counts an event delivered several times at once only once', async () => {
    const p = await payer();
    const reference = await checkout(p);
    fake.setOutcome(reference, { status: 'success' });
    const event = fake.chargeEvent(reference);
    const answers = await Promise.all(Array.from({ length: 4 }, () => deliver(event.body, event.signature)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await paymentsOf(p.invoice.id)).toHaveLength(1);
    expect((await checkoutOf(reference)).status).toBe('paid');
  });

  it('refuses a forged or missing signature with 401 and stores nothing', async () => {
    const p = await payer();
    const reference = await checkout(p);
    fake.setOutcome(reference, { status: 'success' });
    const event = fake.chargeEvent(reference);
    const forged = createHmac('sha512', 'sk_test_someone_else_key').update(event.body).digest('hex');
    const verifiedBefore = fake.verified.length;
    for (const signature of [forged, undefined, 'not-a-signature']) {
      const res = await deliver(event.body, signature);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(BAD_SIGNATURE);
    }
    expect(fake.verified.length).toBe(verifiedBefore);
    expect(await paymentsOf(p.invoice.id)).toEqual([]);
    expect(await checkoutOf(reference)).toMatchObject({ status: 'initialized', lastEvent: null, lastPayload: null });
  });

  it('refuses a body altered after signing (the old signature) with 401', async () => {
    const p = await payer();
    const reference = await checkout(p);
    fake.setOutcome(reference, { status: 'success' });
    const event = fake.chargeEvent(reference);
    // Same JSON meaning with other bytes counts as altered too: the signature is over the raw body.
    for (const body of [event.body.replace(`"amount":${p.invoice.grossKobo}`, '"amount":100'), event.body.replace('{"event"', '{ "event"')]) {
      expect(body).not.toBe(event.body);
      expect((await deliver(body, event.signature)).statusCode).toBe(401);
    }
    expect(await paymentsOf(p.invoice.id)).toEqual([]);
  });

  it('flags a charge whose verified amount differs from the one asked: no payment, staff mailed', async () => {
    const p = await payer();
    const reference = await checkout(p);
    // The body claims the full amount; Paystack's API, which decides, says 1 naira less.
    fake.setOutcome(reference, { status: 'success', amountKobo: p.invoice.grossKobo - 100n });
    const event = fake.chargeEvent(reference, { amount: Number(p.invoice.grossKobo) });
    expect((await deliver(event.body, event.signature)).statusCode).toBe(200);
    expect(await paymentsOf(p.invoice.id)).toEqual([]);
    expect(await checkoutOf(reference)).toMatchObject({ status: 'amount_mismatch', paidAmountKobo: p.invoice.grossKobo - 100n, paymentId: null });
    expect(await staffMismatchMails(reference)).toHaveLength(1);
    // A replay changes nothing and mails nobody again.
    expect((await deliver(event.body, event.signature)).statusCode).toBe(200);
    expect(await staffMismatchMails(reference)).toHaveLength(1);
    // Staff find it on the finance overview, among the payments to check.
    const staff = await actor(t, 'admin');
    const overview = await t.app.inject({ method: 'GET', url: '/api/finance/overview', headers: staff.headers });
    expect(overview.json().flagged).toContainEqual(
      expect.objectContaining({ reference, askedKobo: p.invoice.grossKobo.toString(), paidKobo: (p.invoice.grossKobo - 100n).toString() }),
    );
  });

  it('flags a charge in another currency', async () => {
    const p = await payer();
    const reference = await checkout(p);
    fake.setOutcome(reference, { status: 'success', currency: 'USD' });
    const event = fake.chargeEvent(reference);
    expect((await deliver(event.body, event.signature)).statusCode).toBe(200);
    expect(await paymentsOf(p.invoice.id)).toEqual([]);
    expect((await checkoutOf(reference)).status).toBe('amount_mismatch');
  });

  it('flags a charge larger than what is outstanding now (a transfer recorded meanwhile), never overpaying', async () => {
    const p = await payer();
    const reference = await checkout(p);
    await t.database.db.insert(payments).values({ invoiceId: p.invoice.id, amountKobo: 500_000n, receivedOn: '2026-11-21', method: 'bank_transfer', reference: 'TRF-9' });
    fake.setOutcome(reference, { status: 'success' });
    const event = fake.chargeEvent(reference);
    expect((await deliver(event.body, event.signature)).statusCode).toBe(200);
    expect((await paymentsOf(p.invoice.id)).filter((x) => x.method === 'paystack')).toEqual([]);
    expect((await checkoutOf(reference)).status).toBe('amount_mismatch');
    expect(await staffMismatchMails(reference)).toHaveLength(1);
  });

  it('judges an event that arrives before Paystack confirms the charge by the verify call, and counts the later one', async () => {
    const p = await payer();
    const reference = await checkout(p);
    fake.setOutcome(reference, { status: 'ongoing' });
    const early = fake.chargeEvent(reference);
    expect((await deliver(early.body, early.signature)).statusCode).toBe(200);
    expect(await paymentsOf(p.invoice.id)).toEqual([]);
    expect((await checkoutOf(reference)).status).toBe('failed');

    fake.setOutcome(reference, { status: 'success' });
    const late = fake.chargeEvent(reference);
    expect((await deliver(late.body, late.signature)).statusCode).toBe(200);
    expect(await paymentsOf(p.invoice.id)).toHaveLength(1);
    expect((await checkoutOf(reference)).status).toBe('paid');
  });

  it('counts the first of two paid checkouts of one invoice and flags the superseded one', async () => {
    const p = await payer();
    const first = await checkout(p);
    const second = await checkout(p);
    fake.setOutcome(first, { status: 'success' });
    fake.setOutcome(second, { status: 'success' });
    // Out of order: the later checkout's event arrives first and counts; the earlier one then finds nothing outstanding.
    for (const reference of [second, first]) {
      const event = fake.chargeEvent(reference);
      expect((await deliver(event.body, event.signature)).statusCode).toBe(200);
    }
    expect(await paymentsOf(p.invoice.id)).toHaveLength(1);
    expect((await checkoutOf(second)).status).toBe('paid');
    expect((await checkoutOf(first)).status).toBe('amount_mismatch');
  });

  it('ignores other events and references not ours, without asking Paystack', async () => {
    const before = fake.verified.length;
    const other = JSON.stringify({ event: 'transfer.success', data: { reference: 'inv-whatever' } });
    expect((await deliver(other, fake.sign(other))).statusCode).toBe(200);
    const stranger = JSON.stringify({ event: 'charge.success', data: { reference: 'inv-not-ours', amount: 100, currency: 'NGN' } });
    expect((await deliver(stranger, fake.sign(stranger))).statusCode).toBe(200);
    expect(fake.verified.length).toBe(before);
  });

  it('answers 503 when the verify call fails, so Paystack sends the event again, and counts it then', async () => {
    const p = await payer();
    const reference = await checkout(p);
    fake.setOutcome(reference, { status: 'success' });
    const event = fake.chargeEvent(reference);
    fake.setDown(true);
    try {
      expect((await deliver(event.body, event.signature)).statusCode).toBe(503);
    } finally {
      fake.setDown(false);
    }
    expect(await paymentsOf(p.invoice.id)).toEqual([]);
    expect((await checkoutOf(reference)).status).toBe('initialized');
    expect((await deliver(event.body, event.signature)).statusCode).toBe(200);
    expect(await paymentsOf(p.invoice.id)).toHaveLength(1);
  });

  it('refuses a body past 64 KB and one that is not JSON', async () => {
    const big = JSON.stringify({ event: 'charge.success', data: { reference: 'x', pad: 'a'.repeat(70_000) } });
    expect((await deliver(big, fake.sign(big))).statusCode).toBe(413);
    const text = await t.app.inject({ method: 'POST', url: '/api/paystack/webhook', headers: { 'content-type': 'text/plain', 'x-paystack-signature': fake.sign('hi') }, payload: 'hi' });
    expect(text.statusCode).toBe(400);
    // Signed but not JSON: refused after the signature check, nothing stored.
    expect((await deliver('{"event":', fake.sign('{"event":'))).statusCode).toBe(400);
  });
});

describe('the whole round trip through the fake checkout page', () => {
  it('pays from the hosted page: the signed webhook reaches our server and the browser returns to the invoice', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    fake.setWebhookTarget(`${address}/api/paystack/webhook`);
    try {
      const p = await payer(2_500_000n);
      const res = await payOnline(p.headers, p.invoice.id);
      const { authorizationUrl } = res.json() as { authorizationUrl: string };
      const page = await (await fetch(authorizationUrl)).text();
      expect(page).toContain('<button type="submit">Pay ₦26,875.00</button>');
      const reference = fake.initialized.at(-1)!.body.reference;
      const paid = await fetch(`${authorizationUrl}/pay`, { method: 'POST', redirect: 'manual' });
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toBe(fake.initialized.at(-1)!.body.callback_url);
      expect(fake.delivered.at(-1)).toEqual({ reference, status: 200 });
      expect(await paymentsOf(p.invoice.id)).toHaveLength(1);
    } finally {
      fake.setWebhookTarget(null);
    }
  });
});
