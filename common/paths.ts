// Every path of the product, in one place. Screens and links use these names, never string literals.
export const PATHS = {
  home: '/',
  services: '/services',
  about: '/about',
  howWeWork: '/how-we-work',
  projects: '/projects',
  equipments: '/equipments',
  gallery: '/gallery',
  certifications: '/certifications',
  vendorRegistration: '/vendor-registration',
  articles: '/articles',
  article: (id: string) => `/articles/${encodeURIComponent(id)}`,
  contact: '/contact',
  clientLogin: '/s/login',
  clientDashboard: '/s/client/dashboard',
  adminLogin: '/secured/v1/login',
  adminDashboard: '/secured/v1/admin',
  // First-run set-up of the first admin account (open only while none exists; decision 160).
  adminSetup: '/secured/v1/setup',
  blogList: '/secured/v1/admin/blog-management',
  blogNew: '/secured/v1/admin/blog-management/new',
  blogEdit: (id: string) => `/secured/v1/admin/blog-management/${encodeURIComponent(id)}/edit`,
  // Staff review of what visitors send, and the newsletter's confirm and unsubscribe landings.
  adminVendorApplications: '/secured/v1/admin/vendor-applications',
  adminVendorApplication: (id: string) => `/secured/v1/admin/vendor-applications/${encodeURIComponent(id)}`,
  adminContactMessages: '/secured/v1/admin/contact-messages',
  adminNewsletterSubscribers: '/secured/v1/admin/newsletter-subscribers',
  // Staff write and send newsletters, and see the ones sent.
  adminNewsletter: '/secured/v1/admin/newsletter',
  // The login audit (every sign-in attempt), for staff.
  adminSecurity: '/secured/v1/admin/security',
  // Who did what (issue 23): every recorded change, for staff.
  adminAuditLog: '/secured/v1/admin/audit-log',
  // The staff accounts and their roles (decision 275), for owners.
  adminStaff: '/secured/v1/admin/staff',
  // The media library: the website's images (issue 24).
  adminMedia: '/secured/v1/admin/media',
  adminWebsite: '/secured/v1/admin/website',
  // The support chat's conversations, for staff.
  adminChat: '/secured/v1/admin/chat',
  // The payment plan's overview across projects (issue 26), and the invoice settings.
  adminFinance: '/secured/v1/admin/finance',
  adminFinanceSettings: '/secured/v1/admin/finance/settings',
  newsletterConfirm: '/newsletter/confirm',
  newsletterUnsubscribe: '/newsletter/unsubscribe',
  // Where the footer's newsletter box posts when JavaScript is off (it answers with a page).
  newsletterSubscribe: '/newsletter/subscribe',
  serviceSection: (id: string) => `/services#${id}`,
  // Account pages reached from e-mailed links and the login screens (client-rendered, never pre-rendered).
  setPassword: '/account/set-password',
  forgotPassword: '/account/forgot-password',
  resetPassword: '/account/reset-password',
} as const;

/** The eleven links of the header, in the specification's order. */
export const HEADER_LINKS = [
  { label: 'Home', to: PATHS.home },
  { label: 'Services', to: PATHS.services },
  { label: 'About', to: PATHS.about },
  { label: 'How We Work', to: PATHS.howWeWork },
  { label: 'Projects', to: PATHS.projects },
  { label: 'Equipments', to: PATHS.equipments },
  { label: 'Gallery', to: PATHS.gallery },
  { label: 'Certifications', to: PATHS.certifications },
  { label: 'Vendor Form', to: PATHS.vendorRegistration },
  { label: 'Articles', to: PATHS.articles },
  { label: 'Contact', to: PATHS.contact },
] as const;

/** The footer's quick links: pages of the header, in its words, but for 'About Us'. */
export const FOOTER_LINKS = [PATHS.services, PATHS.about, PATHS.howWeWork, PATHS.gallery, PATHS.contact].map((to) => ({
  label: to === PATHS.about ? 'About Us' : HEADER_LINKS.find((link) => link.to === to)!.label,
  to,
}));

/**
 * The public pages rendered from the published content (decision 289): on first request, then kept
 * as HTML in the site page cache (server/lib/site-pages.ts) until the content changes.
 */
export const SITE_PAGE_PATHS = [
  PATHS.home,
  PATHS.services,
  PATHS.about,
  PATHS.howWeWork,
  PATHS.projects,
  PATHS.equipments,
  PATHS.gallery,
  PATHS.certifications,
  PATHS.vendorRegistration,
  PATHS.contact,
] as const;

/**
 * The public content pages (decision 140: served without React; the same for every visitor): the
 * site pages without forms and the articles pages. Speculation rules prerender them
 * (decision 142) and they carry no Cross-Origin-Opener-Policy (decision 143).
 */
export const CONTENT_PAGE_PATTERNS = [
  ...SITE_PAGE_PATHS.filter((p) => p !== PATHS.vendorRegistration && p !== PATHS.contact),
  PATHS.articles,
  `${PATHS.articles}/*`,
] as const;

/** Whether a URL path (no query) names a content page of CONTENT_PAGE_PATTERNS. */
export function isContentPagePath(urlPath: string): boolean {
  const path = urlPath.length > 1 ? urlPath.replace(/\/$/, '') : urlPath;
  return CONTENT_PAGE_PATTERNS.some((p) => (p.endsWith('/*') ? path.startsWith(p.slice(0, -1)) && path.length > p.length - 1 && !path.slice(p.length - 1).includes('/') : path === p));
}

const ADMIN_PREFIX = '/secured/v1/admin';

function isAdminArea(pathname: string) {
  return pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`);
}

/** Which parts of the shared chrome a path shows (specification, "Shared chrome"). */
export function chromeFor(pathname: string): { header: boolean; footer: boolean; chat: boolean } {
  const path = pathname.replace(/\/+$/, '') || '/';
  const admin = isAdminArea(path);
  const clientDashboard = path === PATHS.clientDashboard;
  // The one-time set-up is an admin screen: the admin login's layout (issue 21).
  const adminLogin = path === PATHS.adminLogin || path === PATHS.adminSetup;
  const clientLogin = path === PATHS.clientLogin;
  return {
    header: !admin && !clientDashboard,
    footer: !admin && !adminLogin && !clientLogin && !clientDashboard,
    // Issue 11 also hides it on the client login (the specification lists admin, admin login, dashboard).
    chat: !admin && !adminLogin && !clientLogin && !clientDashboard,
  };
}
