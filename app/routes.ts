import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

// The route table of the specification, in its order. Keep this a plain list.
export default [
  index('routes/site/home.tsx'),
  route('services', 'routes/site/services.tsx'),
  route('about', 'routes/site/about.tsx'),
  route('how-we-work', 'routes/site/how-we-work.tsx'),
  route('projects', 'routes/site/projects.tsx'),
  route('equipments', 'routes/site/equipments.tsx'),
  route('gallery', 'routes/site/gallery.tsx'),
  route('certifications', 'routes/site/certifications.tsx'),
  route('vendor-registration', 'routes/site/vendor-registration.tsx'),
  route('articles', 'routes/site/articles.tsx'),
  // The RSS feed of the company's posts (ranked before the detail page by its fixed segment).
  route('articles/rss.xml', 'routes/site/articles-rss.ts'),
  route('articles/:id', 'routes/site/article-detail.tsx'),
  route('contact', 'routes/site/contact.tsx'),
  // Where the newsletter mails' confirm and unsubscribe links land (rendered on request).
  route('newsletter/confirm', 'routes/site/newsletter-confirm.tsx'),
  route('newsletter/unsubscribe', 'routes/site/newsletter-unsubscribe.tsx'),
  // Where the footer's box posts without JavaScript; the server's form route renders its answer here.
  route('newsletter/subscribe', 'routes/site/newsletter-subscribe.tsx'),
  // Account pages of e-mailed links and 'Forgot password?' (rendered on request, never pre-rendered).
  route('account/set-password', 'routes/account/set-password.tsx'),
  route('account/forgot-password', 'routes/account/forgot-password.tsx'),
  route('account/reset-password', 'routes/account/reset-password.tsx'),
  // First-run set-up of the first admin (server-checked: 404 once an admin exists; decision 160).
  route('secured/v1/setup', 'routes/admin/admin-setup.tsx'),
  // Signed-in areas render in the browser and share the data client (TanStack Query).
  layout('routes/portal/portal-layout.tsx', [
    route('s/login', 'routes/portal/client-login.tsx'),
    route('s/client/dashboard', 'routes/portal/client-dashboard.tsx'),
    route('secured/v1/login', 'routes/admin/admin-login.tsx'),
    route('secured/v1/admin', 'routes/admin/admin-dashboard.tsx'),
    route('secured/v1/admin/blog-management', 'routes/admin/blog-list.tsx'),
    route('secured/v1/admin/blog-management/new', 'routes/admin/blog-new.tsx'),
    route('secured/v1/admin/blog-management/:id/edit', 'routes/admin/blog-edit.tsx'),
    // Staff review of what visitors sent.
    route('secured/v1/admin/vendor-applications', 'routes/admin/vendor-applications.tsx'),
    route('secured/v1/admin/vendor-applications/:id', 'routes/admin/vendor-application.tsx'),
    route('secured/v1/admin/contact-messages', 'routes/admin/contact-messages.tsx'),
    route('secured/v1/admin/newsletter-subscribers', 'routes/admin/newsletter-subscribers.tsx'),
    route('secured/v1/admin/newsletter', 'routes/admin/newsletter.tsx'),
    // The login audit (every sign-in attempt).
    route('secured/v1/admin/security', 'routes/admin/security.tsx'),
    // Who did what: every recorded change.
    route('secured/v1/admin/audit-log', 'routes/admin/audit-log.tsx'),
    // Staff accounts: invite, role, deactivate (owners).
    route('secured/v1/admin/staff', 'routes/admin/staff.tsx'),
    // The website's images (issue 24).
    route('secured/v1/admin/media', 'routes/admin/media.tsx'),
    route('secured/v1/admin/website', 'routes/admin/website.tsx'),
    route('secured/v1/admin/website/:section', 'routes/admin/website-section.tsx'),
    // The support chat's conversations and unanswered questions.
    route('secured/v1/admin/chat', 'routes/admin/chat-conversations.tsx'),
    // The payment plan (issue 26): the overview across projects, and the invoice settings.
    route('secured/v1/admin/finance', 'routes/admin/finance.tsx'),
    route('secured/v1/admin/finance/settings', 'routes/admin/finance-settings.tsx'),
  ]),
  route('sitemap.xml', 'routes/site/sitemap.ts'),
  route('*', 'routes/site/not-found.tsx'),
] satisfies RouteConfig;
