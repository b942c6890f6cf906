import { and, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../db/schema/contact.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { vendorApplications } from '../db/schema/vendors.ts';
import { formToken, multipartBody } from '../../tests/helpers/forms.ts';
import { createTestApp, createUser, type TestApp } from '../../tests/helpers/test-app.ts';
import { settleAfterAnswer } from '../lib/after-answer.ts';
import { mailGreeting, mailName, recipientKey, TYPED_ADDRESS_MAILS_PER_DAY } from './typed-address.ts';
import { VENDOR_REQUIRED_FIELDS } from '../../tests/helpers/vendor-fields.ts';

// Decision 190: a mail to an address a visitor typed carries none of the visitor's words beyond a
// short plain name, and only a few go to one mailbox a day, for every kind of such mail.

const PHISH_NAME = 'Your portal account is suspended. Confirm your bank details at https://evil.example/verify today';
const DAY_MS = 24 * 60 * 60_000;

describe('the name in a mail to a typed address', () => {
  it.each(['Ngozi Ade', 'Chidi', "Ade O'Neil-Bello", 'J. Okafor Jr.', 'Émile Zoë', 'Ọlá Àdìgún'])('keeps a plain name: %s', (name) => {
    expect(mailName(`  ${name} `)).toBe(name);
  });

  it.each([
    PHISH_NAME,
    'https://evil.example',
    'evil.example',
    'Visit evil.example',
    'victim@example.test',
    'Call 0800 555 0199',
    'Pay now: bank',
    'Ada <b>Obi</b>',
    'A name that is far too long to be anybody real',
    'One two three four five',
    'evil。example',
  ])('refuses %s, and the greeting is a plain "Hello,"', (name) => {
    expect(mailName(name)).toBeNull();
    expect(mailGreeting(name)).toBe('Hello,');
  });

  it('counts one mailbox however its address is written', () => {
    expect(recipientKey(' Victim+1@Example.test ')).toBe('victim@example.test');
    expect(recipientKey('v.i.c.t.i.m+x@googlemail.com')).toBe('victim@gmail.com');
    expect(recipientKey('first.last@example.test')).toBe('first.last@example.test');
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ STAFF_EMAIL: 'staff@example.test' });
});
afterAll(async () => t.close());

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const mailsOfKind = (kinds: string[], to: string[]) =>
  t.database.db.select().from(mailOutbox).where(and(inArray(mailOutbox.kind, kinds), inArray(mailOutbox.to, to)));

describe('the chat hand-off acknowledgement', () => {
  const handoff = async (name: string, email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chat/handoff',
      payload: { formToken: await formToken(t, 'contact'), homepageUrl: '', name, email, phone: '' },
      remoteAddress: freshIp(),
    });

  it("carries none of the visitor's words: a sentence with a link in the name field gives a plain greeting", async () => {
    t.clock.set(new Date('2026-12-02T09:00:00Z'));
    expect((await handoff(PHISH_NAME, 'victim@example.test')).statusCode).toBe(200);
    const [ack] = await mailsOfKind(['chat-handoff-visitor'], ['victim@example.test']);
    expect(ack.text.startsWith('Hello,\n')).toBe(true);
    for (const text of [ack.subject, ack.text, ack.html ?? '']) {
      expect(text).not.toContain('evil.example');
      expect(text).not.toContain('suspended');
    }
    // Staff still see what was typed.
    const [staff] = await mailsOfKind(['contact-message-staff'], ['staff@example.test']);
    expect(staff.text).toContain('evil.example/verify');
  });

  it('greets by a plain name', async () => {
    expect((await handoff('Ngozi Ade', 'ngozi@example.test')).statusCode).toBe(200);
    const [ack] = await mailsOfKind(['chat-handoff-visitor'], ['ngozi@example.test']);
    expect(ack.text.startsWith('Hello Ngozi Ade,\n')).toBe(true);
  });

  it(`goes to one mailbox at most ${TYPED_ADDRESS_MAILS_PER_DAY['chat-handoff-visitor']} times a day, from any address and spelling; staff get every hand-off`, async () => {
    t.clock.set(new Date('2026-12-03T09:00:00Z'));
    const spellings = ['target@example.test', 'Target+1@example.test', 'target+2@example.test', 'target+3@example.test', 'target+4@example.test'];
    for (const email of spellings) expect((await handoff('Bola', email)).statusCode).toBe(200);
    expect(await mailsOfKind(['chat-handoff-visitor'], spellings)).toHaveLength(TYPED_ADDRESS_MAILS_PER_DAY['chat-handoff-visitor']);
    expect(await t.database.db.select().from(contactMessages).where(inArray(contactMessages.email, spellings))).toHaveLength(5);
    // The next day the mailbox may be acknowledged again.
    t.clock.advance(DAY_MS);
    expect((await handoff('Bola', 'target@example.test')).statusCode).toBe(200);
    expect(await mailsOfKind(['chat-handoff-visitor'], spellings)).toHaveLength(TYPED_ADDRESS_MAILS_PER_DAY['chat-handoff-visitor'] + 1);
  });
});

describe('the newsletter confirmation', () => {
  const subscribe = async (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { formToken: await formToken(t, 'newsletter'), homepageUrl: '', email },
      remoteAddress: freshIp(),
    });

  it(`goes to one mailbox at most ${TYPED_ADDRESS_MAILS_PER_DAY.newsletter} times a day, however often the box is filled in`, async () => {
    t.clock.set(new Date('2026-12-04T09:00:00Z'));
    const spellings = Array.from({ length: 8 }, (_, i) => (i ? `news-victim+${i}@example.test` : 'news-victim@example.test'));
    for (const email of spellings) {
      expect((await subscribe(email)).statusCode).toBe(200);
      t.clock.advance(11 * 60_000); // past the ten minutes between two mails to one exact address
      expect((await subscribe(email)).statusCode).toBe(200);
      t.clock.advance(11 * 60_000);
    }
    const kinds = ['newsletter-confirmation', 'newsletter-already-subscribed'];
    const sent = await mailsOfKind(kinds, spellings);
    expect(sent).toHaveLength(TYPED_ADDRESS_MAILS_PER_DAY.newsletter);
    for (const mail of sent) expect(mail.text.startsWith('Hello,\n')).toBe(true);
    t.clock.advance(DAY_MS);
    expect((await subscribe('news-victim@example.test')).statusCode).toBe(200);
    expect(await mailsOfKind(kinds, spellings)).toHaveLength(TYPED_ADDRESS_MAILS_PER_DAY.newsletter + 1);
  });
});

describe('the vendor acknowledgement', () => {
  const submit = async (email: string) => {
    const body = await multipartBody({
      formToken: await formToken(t, 'vendor'),
      homepageUrl: '',
      ...VENDOR_REQUIRED_FIELDS,
      companyName: PHISH_NAME,
      companyEmail: email,
      contactPersonEmail: email,
    });
    return t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: freshIp() });
  };

  it(`goes to one mailbox at most ${TYPED_ADDRESS_MAILS_PER_DAY['vendor-application-ack']} times a day, however its address is spelt`, async () => {
    t.clock.set(new Date('2026-12-06T09:00:00Z'));
    const spellings = ['vendor-victim@example.test', 'vendor-victim+a@example.test', 'VENDOR-victim+b@example.test', 'vendor-victim+c@example.test'];
    for (const email of spellings) expect((await submit(email)).statusCode).toBe(200);
    const sent = await mailsOfKind(['vendor-application-ack'], spellings);
    expect(sent).toHaveLength(TYPED_ADDRESS_MAILS_PER_DAY['vendor-application-ack']);
    for (const mail of sent) expect(mail.text).not.toContain('evil.example');
    expect(await t.database.db.select().from(vendorApplications).where(inArray(vendorApplications.companyEmail, spellings))).toHaveLength(4);
  });
});

describe('the password reset mail', () => {
  it(`goes to one account at most ${TYPED_ADDRESS_MAILS_PER_DAY['password-reset']} times a day (besides 3 an hour)`, async () => {
    t.clock.set(new Date('2026-12-08T09:00:00Z'));
    const client = await createUser(t, { role: 'client' });
    for (let hour = 0; hour < 3; hour++) {
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { identifier: client.username! }, remoteAddress: freshIp() });
        expect(res.statusCode).toBe(200);
      }
      await settleAfterAnswer(t.app);
      t.clock.advance(61 * 60_000);
    }
    expect(await mailsOfKind(['password-reset'], [client.email])).toHaveLength(TYPED_ADDRESS_MAILS_PER_DAY['password-reset']);
  });
});

it('every kind of mail to a typed address has its cap (a new kind needs one, and a test here)', () => {
  expect(Object.keys(TYPED_ADDRESS_MAILS_PER_DAY).sort()).toEqual(['chat-handoff-visitor', 'newsletter', 'password-reset', 'vendor-application-ack']);
  for (const limit of Object.values(TYPED_ADDRESS_MAILS_PER_DAY)) expect(limit).toBeLessThanOrEqual(5);
});
