import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLineEndings } from '../../common/schemas/line-endings.ts';
import { blogPosts } from '../../server/db/schema/blog.ts';
import { chatTurns } from '../../server/db/schema/chat.ts';
import { contactMessages } from '../../server/db/schema/contact.ts';
import { mailOutbox } from '../../server/db/schema/mail.ts';
import { messages } from '../../server/db/schema/messages.ts';
import { newsletterIssues, newsletterSubscribers } from '../../server/db/schema/newsletter.ts';
import { projects } from '../../server/db/schema/projects.ts';
import { progressReports } from '../../server/db/schema/reports.ts';
import { vendorApplications, vendorStatusChanges } from '../../server/db/schema/vendors.ts';
import { ask } from '../helpers/chat.ts';
import { formToken, multipartBody } from '../helpers/forms.ts';
import { createProjectVia, multipart, type Actor } from '../helpers/portal.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { appWithAdminAndClient } from '../helpers/actors.ts';

// Issue 21: a textarea's line breaks arrive as CRLF (form posts and FormData), or as a lone CR from
// pasted text; every multi-line field stores and mails them as LF.

const TYPED = 'First line\r\nSecond line\r\n\r\nThird line\rFourth line';
const STORED = 'First line\nSecond line\n\nThird line\nFourth line';

let smtp: TestSmtpServer;
let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; code: string; name: string };
let ip = 1;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ t, admin, client } = await appWithAdminAndClient({ SMTP_URL: smtp.url, STAFF_EMAIL: 'staff@example.test' }));
  project = await createProjectVia(t, admin, client.id);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const mailsOfKind = async (kind: string) => t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, kind));

describe('normaliseLineEndings', () => {
  it('writes CRLF, CR, NEL, LS and PS as LF and leaves other text alone', () => {
    expect(normaliseLineEndings('a\r\nb\rc\u0085d\u2028e\u2029f\ng\th')).toBe('a\nb\nc\nd\ne\nf\ng\th');
    expect(normaliseLineEndings('\r\n\r\n')).toBe('\n\n');
  });
});

describe('multi-line fields are stored with LF line breaks', () => {
  it('progress report sections (multipart, as the browser sends them)', async () => {
    const sections = { tasks: TYPED, progress: TYPED, challenges: TYPED, actionTaken: TYPED, helpNeeded: TYPED, nextSteps: TYPED, feedback: TYPED, conclusion: TYPED };
    const body = await multipart({ date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, ...sections });
    const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(progressReports).where(eq(progressReports.id, res.json().report._id));
    for (const key of Object.keys(sections) as (keyof typeof sections)[]) expect(row[key], key).toBe(STORED);
    expect(res.json().report.tasks).toBe(STORED);
  });

  it('a message to staff', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: client.headers, payload: { text: TYPED, projectId: project._id } });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, res.json().message._id));
    expect(row.text).toBe(STORED);
  });

  it('a contact message, and the mail to staff', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { formToken: await formToken(t, 'contact'), homepageUrl: '', name: 'Ngozi Eze', email: 'ngozi@example.test', message: TYPED },
      remoteAddress: `198.51.100.${ip++}`,
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.email, 'ngozi@example.test'));
    expect(row.message).toBe(STORED);
    const [mail] = await mailsOfKind('contact-message-staff');
    expect(mail.text).toContain('Message: First line\n');
    expect(mail.text).not.toContain('\r');
  });

  it('a vendor application: addresses, lists and bank details, and the mails about it', async () => {
    const multi = { companyAddress: TYPED, previousAddress: TYPED, contactPersonAddress: TYPED, certifications: TYPED, experience: TYPED, references: TYPED, bankDetails: TYPED };
    const fields = {
      companyName: 'Lines Ltd',
      companyPhone: '+234 800 000 0000',
      companyEmail: 'lines@vendors.example',
      website: '',
      contactPersonName: 'Chidi',
      contactPersonEmail: '',
      contactPersonPhone: '',
      businessType: 'Contractor',
      taxId: 'TIN-1',
      registrationNumber: 'RC 1',
      compliant: 'Yes',
      ...multi,
    };
    const body = await multipartBody({ formToken: await formToken(t, 'vendor'), homepageUrl: '', ...fields });
    const res = await t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: `198.51.100.${ip++}` });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(vendorApplications).where(eq(vendorApplications.companyName, 'Lines Ltd'));
    for (const key of Object.keys(multi) as (keyof typeof multi)[]) expect(row[key], key).toBe(STORED);
    const [mail] = await mailsOfKind('vendor-application-staff');
    expect(mail.text).not.toContain('\r');

    const review = await t.app.inject({ method: 'PUT', url: `/api/vendors/applications/${row.id}/status`, headers: admin.headers, payload: { status: 'under-review', note: TYPED } });
    expect(review.statusCode).toBe(200);
    const notes = await t.database.db.select().from(vendorStatusChanges).where(eq(vendorStatusChanges.applicationId, row.id));
    expect(notes.map((n) => n.note)).toContain(STORED);
  });

  it('a project description', async () => {
    const created = await createProjectVia(t, admin, client.id, { description: TYPED });
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, created._id));
    expect(row.description).toBe(STORED);
  });

  it('counts a line break once against a length limit, as the textarea does', async () => {
    // 2,500 lines of one letter: 5,000 characters with LF breaks (the limit), 7,500 as CRLF.
    const created = await createProjectVia(t, admin, client.id, { description: 'x\r\n'.repeat(2500) });
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, created._id));
    expect(row.description).toBe('x\n'.repeat(2500).trim());
  });

  it("a blog post's excerpt and content", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blog/posts',
      headers: admin.headers,
      payload: { title: 'Line endings', author: 'Site Team', category: 'Marine & Logistics', excerpt: TYPED, content: `<p>${TYPED}</p>` },
    });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(blogPosts).where(eq(blogPosts.id, res.json().post._id));
    expect(row.excerpt).toBe(STORED);
    expect(row.content).toBe(`<p>${STORED}</p>`);
  });

  it('a chat question', async () => {
    const asked = await ask(t.app, `Which services\r\ndo you offer?`, { ip: `198.51.100.${ip++}` });
    expect(asked.status).toBe(200);
    const turns = await t.database.db.select().from(chatTurns);
    expect(turns.map((turn) => turn.question)).toEqual(['Which services\ndo you offer?']);
  });

  it('a newsletter issue, and the issue mailed', async () => {
    await t.database.db.insert(newsletterSubscribers).values({
      email: 'reader@example.test',
      status: 'subscribed',
      unsubscribeToken: `unsub-${randomUUID()}`,
      createdAt: t.clock.now(),
      confirmedAt: t.clock.now(),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/issues',
      headers: admin.headers,
      payload: { subject: 'November on site', body: TYPED, idempotencyKey: randomUUID() },
    });
    expect(res.statusCode).toBeLessThan(300);
    const [row] = await t.database.db.select().from(newsletterIssues).where(eq(newsletterIssues.subject, 'November on site'));
    expect(row.body).toBe(STORED);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'reader@example.test'));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(STORED);
    expect(mails[0].text).not.toContain('\r');
  });
});
