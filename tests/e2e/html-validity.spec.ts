import type { APIRequestContext } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { SECTION_SEEDS } from '../../common/content/section-seeds.ts';
import { PATHS, SITE_PAGE_PATHS } from '../../common/paths.ts';
import { VENDOR_TEXT_FIELDS, type VendorApplicationFields } from '../../common/schemas/vendors.ts';
import { loadConfig } from '../../server/config.ts';
import { renderMail } from '../../server/mail/layout.ts';
import type { MailInput } from '../../server/mail/mailer.ts';
import { passwordResetMail } from '../../server/modules/auth/password-changes.service.ts';
import { invitationMail } from '../../server/modules/auth/invitations.service.ts';
import { handOffAcknowledgement } from '../../server/modules/chat/chat.service.ts';
import { contactStaffMail } from '../../server/modules/contact/contact.service.ts';
import { messageNotificationMail } from '../../server/modules/messages/message-notifications.ts';
import { alreadySubscribedMail, confirmationMail, newsletterMail, welcomeMail } from '../../server/modules/newsletter/newsletter.service.ts';
import { issueContent } from '../../server/modules/newsletter/newsletter-issues.service.ts';
import { reportNotificationMail } from '../../server/modules/reports/report-mail.ts';
import type { PublishedReader } from '../../server/modules/site-content/published-company.ts';
import { applicantAcknowledgement, staffNotification } from '../../server/modules/vendors/vendors.mail.ts';
import routes from '../../app/routes.ts';
import { nuErrors } from '../helpers/nu-checker.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { createUserViaApi, expect, test } from './fixtures.ts';

// Issue 21: every page the server sends and every mail it sends is valid HTML, by the W3C Nu Html
// Checker (vnu-jar, Java). All documents are gathered first and checked in one run of the checker:
// Java's start is most of its cost.

const PG_URL = `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? 54410}/app`;
const POST_SLUG = 'html-validity-e2e';

/** The signed-in screens (rendered in the browser): their served HTML, for callers in and out. */
const ADMIN_SCREENS = [
  PATHS.adminDashboard,
  PATHS.blogList,
  PATHS.blogNew,
  PATHS.blogEdit('00000000-0000-4000-8000-000000000000'),
  PATHS.adminVendorApplications,
  PATHS.adminVendorApplication('00000000-0000-4000-8000-000000000000'),
  PATHS.adminContactMessages,
  PATHS.adminNewsletterSubscribers,
  PATHS.adminNewsletter,
  PATHS.adminSecurity,
  PATHS.adminChat,
  PATHS.adminFinance,
  PATHS.adminFinanceSettings,
  PATHS.adminAuditLog,
  PATHS.adminMedia,
  PATHS.adminStaff,
  PATHS.adminWebsite,
  `${PATHS.adminWebsite}/company`,
];
const PUBLIC_PAGES = [
  ...SITE_PAGE_PATHS,
  PATHS.articles,
  `${PATHS.articles}?category=Safety`,
  PATHS.article(POST_SLUG),
  PATHS.article('no-such-article'),
  '/no-such-page',
  PATHS.newsletterConfirm,
  `${PATHS.newsletterConfirm}?token=not-a-token`,
  PATHS.newsletterUnsubscribe,
  `${PATHS.newsletterUnsubscribe}?token=not-a-token`,
  PATHS.newsletterSubscribe,
  PATHS.setPassword,
  PATHS.forgotPassword,
  PATHS.resetPassword,
  PATHS.adminSetup,
  PATHS.clientLogin,
  PATHS.adminLogin,
  PATHS.clientDashboard,
  ...ADMIN_SCREENS,
];

/** Every page route of the app (app/routes.ts), as a pattern such as /articles/:id. */
function routePatterns(): string[] {
  type Entry = { path?: string; index?: boolean; children?: Entry[] };
  const walk = (entries: Entry[]): string[] => entries.flatMap((r) => [...(r.index ? ['/'] : r.path ? [`/${r.path}`] : []), ...walk(r.children ?? [])]);
  // The feeds and the sitemap are XML; '*' is the 404 page, checked as /no-such-page.
  return walk(routes as Entry[]).filter((p) => !p.endsWith('.xml') && p !== '/*');
}

/** Whether a checked path is an address of the route pattern. */
const matches = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}$`).test(path.split('?')[0]);

/** A post with every kind of content the editor allows, published, the way the blog module stores it. */
async function writePost() {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const content =
      '<h2>Survey first</h2><p>Text with <strong>bold</strong>, <em>italic</em> and <a href="https://example.com/x">a link</a>.</p>' +
      '<ul><li>One</li><li>Two</li></ul><ol><li>First</li></ol><blockquote><p>A quote.</p></blockquote><h3>Small heading</h3><p>End.</p>';
    await client.query('begin');
    await client.query(
      `insert into blog_posts (title, slug, excerpt, content, author, category, status, visibility, publish_at, first_published_at)
       values ('Validity of every page', $1, 'A post for the HTML check.', $2, 'Projects Team', 'Safety', 'published', 'visible', now() - interval '1 hour', now() - interval '1 hour')
       on conflict (slug) do nothing`,
      [POST_SLUG, content],
    );
    await client.query(`select pg_notify('blog_changed', $1)`, [JSON.stringify({ id: POST_SLUG })]);
    await client.query('commit');
  } finally {
    await client.end();
  }
}

async function pagesOf(request: APIRequestContext, who: string, paths: readonly string[], into: Map<string, string>) {
  for (const path of new Set(paths)) {
    const res = await request.get(path, { maxRedirects: 0 });
    if (res.status() >= 300 && res.status() < 400) continue;
    expect(res.headers()['content-type'] ?? '', `${who} ${path}`).toContain('text/html');
    into.set(`${who} GET ${path} (${res.status()})`, await res.text());
  }
}

/** Every kind of mail the server sends, rendered by the server's own code with its configuration. */
function everyMail(): MailInput[] {
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://portal.example.test', STAFF_EMAIL: 'staff@example.test' });
  // The mail builders read only the configuration of the app they are given and its published content
  // (here the starting content, as on a fresh install).
  const publishedContent: PublishedReader = { get: (section) => SECTION_SEEDS[section] };
  const app = { config, publishedContent } as unknown as FastifyInstance;
  // Visitor text with markup and line breaks: it must stay text, and the document valid.
  const typed = 'Line one <b>not bold</b> & "quoted"\nLine two';
  const fields = Object.fromEntries(VENDOR_TEXT_FIELDS.map((k) => [k, `${k}: ${typed}`])) as VendorApplicationFields;
  fields.companyEmail = 'vendor@example.test';
  const application = {
    id: '00000000-0000-4000-8000-000000000001',
    reference: 'VR-2026-0001',
    fields,
    documents: [
      { kind: 'certification' as const, originalName: 'iso <9001>.pdf', size: 123_456 },
      { kind: 'company-profile' as const, originalName: 'profile.pdf', size: 2_345_678 },
    ],
  };
  const subscriber = { email: 'reader@example.test', unsubscribeToken: 'unsubscribe-token' };
  const issue = { subject: 'Our autumn news <2026>', body: `First paragraph.\n\n${typed}\n\nLast paragraph.` };
  const client = { name: 'Ada <Client>', email: 'client@example.test', username: 'ada.client', role: 'client' as const };
  return [
    contactStaffMail(app, { name: 'Ada <Visitor>', email: 'ada@example.test', phone: '+234 800 000 0000', company: 'Ada & Co', message: typed }),
    handOffAcknowledgement(app, { name: 'Ada <Visitor>', email: 'ada@example.test' }),
    staffNotification(app, application),
    applicantAcknowledgement(app, application),
    passwordResetMail(app, client, 'https://portal.example.test/account/reset-password#token=abc'),
    passwordResetMail(app, { ...client, role: 'admin', username: null }, 'https://portal.example.test/account/reset-password#token=abc'),
    invitationMail(app, client, 'https://portal.example.test/account/set-password#token=abc'),
    messageNotificationMail(app, { toStaff: true, projectName: 'Jetty <A>', clientName: 'Ada <Client>', clientEmail: client.email, senderName: 'Bola <Colleague>', subject: typed }),
    messageNotificationMail(app, { toStaff: false, projectName: 'Jetty <A>', clientName: 'Ada <Client>', clientEmail: client.email, senderName: 'Ngozi <Staff>', subject: '' }),
    reportNotificationMail(app, {
      clientName: 'Ada <Client>',
      clientEmail: client.email,
      projectId: '00000000-0000-4000-8000-000000000002',
      projectName: 'Jetty <A>',
      reportId: '00000000-0000-4000-8000-000000000003',
      reportDate: '2026-11-20',
      addedAt: new Date('2026-11-20T10:00:00Z'),
    }),
    confirmationMail(app, subscriber, 'confirm-token'),
    alreadySubscribedMail(app, subscriber),
    welcomeMail(app, subscriber),
    newsletterMail(app, subscriber, issueContent(app, issue), 'newsletter-issue'),
    { ...renderMail(issueContent(app, { ...issue, subject: `[Test] ${issue.subject}` }, ['This is a test sent only to you.'])), to: 'staff@example.test', kind: 'newsletter-test' },
  ];
}

test('the check covers every page route of the app', () => {
  const uncovered = routePatterns().filter((pattern) => !PUBLIC_PAGES.some((path) => matches(pattern, path)));
  expect(uncovered, 'routes missing from PUBLIC_PAGES').toEqual([]);
});

test('every page the server sends and every mail it sends is valid HTML (W3C Nu Html Checker, 0 errors)', async ({ browser, request }) => {
  test.setTimeout(180_000);
  await writePost();
  const documents = new Map<string, string>();
  // The post's event reaches the server a moment after the commit.
  await expect.poll(async () => (await request.get(PATHS.article(POST_SLUG))).status()).toBe(200);
  await pagesOf(request, 'visitor', PUBLIC_PAGES, documents);
  // Signed in: the served HTML of the admin screens and the client's dashboard.
  for (const role of ['admin', 'client'] as const) {
    const context = await browser.newContext({ baseURL: E2E_BASE_URL });
    try {
      const account = await createUserViaApi(context.request, { role });
      const res = await context.request.post(role === 'admin' ? '/api/auth/adminlogin' : '/api/auth/login', {
        data: role === 'admin' ? { email: account.email, password: account.password } : { username: account.username, password: account.password },
        headers: { origin: E2E_BASE_URL },
      });
      expect(res.ok(), await res.text()).toBe(true);
      await pagesOf(context.request, role, role === 'admin' ? ADMIN_SCREENS : [PATHS.clientDashboard], documents);
    } finally {
      await context.close();
    }
  }
  const mails = everyMail();
  for (const mail of mails) {
    expect(mail.html, mail.kind).toBeTruthy();
    documents.set(`mail ${mail.kind}: ${mail.subject}`, mail.html!);
  }
  // Every public page, the signed-in screens for both kinds of callers, and all fifteen mails.
  expect(documents.size).toBeGreaterThan(PUBLIC_PAGES.length);
  const errors = await nuErrors(documents);
  const lines = errors.map((e) => `${e.document} line ${e.line}: ${e.message}${e.extract ? ` [${e.extract.trim().slice(0, 80)}]` : ''}`);
  expect(lines, `${errors.length} HTML errors`).toEqual([]);
});
