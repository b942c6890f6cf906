import { createHash } from 'node:crypto';
import { BODY_FONT, BOLD_FONT, withUnicodeFonts } from '../../lib/pdf-fonts.ts';
import { bulletItem, keepTogether, leadingHeight } from '../../lib/pdf-layout.ts';
import { loadPdfKit } from '../../lib/lazy-modules.ts';
import type { SectionDocument } from '../../../common/content/sections.ts';
import { safeHref } from '../../../common/schemas/link-check.ts';
import { publishedMemo, type PublishedReader } from '../site-content/published-company.ts';

const BRAND = '#083b6d';
const TEXT = '#1e293b';
const MUTED = '#475569';

/** The sections the profile prints; a publish of any of them makes a new PDF. */
export const COMPANY_PROFILE_SECTIONS = ['company', 'facts', 'about', 'services', 'team', 'certificates'] as const;

export interface CompanyProfilePdf {
  pdf: Buffer;
  /** A strong validator of exactly these bytes. */
  etag: string;
}

// One PDF per published state of its sections, made on the first request after a change (decision 290).
const profile = publishedMemo(COMPANY_PROFILE_SECTIONS, (company, facts, about, services, team, certificates) =>
  renderCompanyProfile({ company, facts, about, services: services.services, team: team.members, certificates: certificates.certificates }).then((pdf) => ({
    pdf,
    etag: `"${createHash('sha256').update(pdf).digest('base64url').slice(0, 27)}"`,
  })),
);

/** The company profile PDF of the published content as it is now, rendered once per change of it. */
export function companyProfilePdf(content: PublishedReader): Promise<CompanyProfilePdf> {
  const pending = profile(content);
  // A failed render is not kept: the next request tries again.
  pending.catch(() => profile.forget(content));
  return pending;
}

interface ProfileContent {
  company: SectionDocument<'company'>;
  facts: SectionDocument<'facts'>;
  about: SectionDocument<'about'>;
  services: SectionDocument<'services'>['services'];
  team: SectionDocument<'team'>['members'];
  certificates: SectionDocument<'certificates'>['certificates'];
}

async function renderCompanyProfile({ company, facts, about, services, team, certificates }: ProfileContent): Promise<Buffer> {
  const { companyFacts, headlineFacts } = facts;
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${company.name} - Company Profile`, Author: company.name, Subject: 'Company profile' },
  });
  withUnicodeFonts(doc);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bodyOptions = { width, align: 'left' as const, lineGap: 2 };
  /** The height of the first lines of body text, set in the body font. */
  const bodyLead = (text: string, lines = 2) => leadingHeight(doc.font(BODY_FONT).fontSize(10.5), text, bodyOptions, lines);
  /**
   * A section heading with its rule. `next` is the height of what must stand under it on the same
   * page (the first lines of its first block), so a heading never ends a page.
   */
  const heading = (text: string, next: number) => {
    doc.moveDown(1.2);
    const height = doc.font(BOLD_FONT).fontSize(16).currentLineHeight(true) + doc.font(BODY_FONT).fontSize(10.5).currentLineHeight(true) * 0.6 + 4;
    keepTogether(doc, height + next);
    // At the top of a new page the space above the heading is the margin's.
    doc.font(BOLD_FONT).fontSize(16).fillColor(BRAND).text(text, left, doc.y, { width });
    doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).lineWidth(1).strokeColor(BRAND).stroke();
    doc.moveDown(0.6);
  };
  const body = (text: string) => doc.font(BODY_FONT).fontSize(10.5).fillColor(TEXT).text(text, left, doc.y, bodyOptions);
  const BULLET = { indent: 10, textIndent: 24, lineGap: 1 };
  /** The height of a bullet's first two lines (its text column is narrower than the body's). */
  const bulletLead = (text: string) => leadingHeight(doc.font(BODY_FONT).fontSize(10.5), text, { width: width - BULLET.textIndent, lineGap: BULLET.lineGap });
  const bullet = (text: string) => bulletItem(doc.font(BODY_FONT).fontSize(10.5).fillColor(TEXT), text, BULLET);
  const serviceHeight = (s: (typeof services)[number]) =>
    doc.font(BOLD_FONT).fontSize(12).heightOfString(s.title, { width }) + bodyLead(s.description, 3);

  // Cover block
  doc.rect(0, 0, doc.page.width, 150).fill(BRAND);
  doc.fillColor('#ffffff').font(BOLD_FONT).fontSize(24).text(company.name, 56, 48, { width: doc.page.width - 112 });
  doc.font(BODY_FONT).fontSize(12).fillColor('#dbeafe').text(company.tagline, { width: doc.page.width - 112 });
  doc.y = 176;
  doc.font(BOLD_FONT).fontSize(12).fillColor(TEXT).text('Company Profile');
  doc.font(BODY_FONT).fontSize(10.5).fillColor(MUTED).text(`Registration number ${company.registrationNumber}  ·  Founded ${company.foundedYear}`);

  heading('Who We Are', bodyLead(about.story[0] ?? ''));
  for (const p of about.story) {
    body(p);
    doc.moveDown(0.4);
  }
  body(`Vision: ${about.vision}`);
  doc.moveDown(0.4);
  body(`Mission: ${about.mission}`);

  const factBullets = [...headlineFacts.map((f) => `${f.label}: ${f.value}`), ...companyFacts.keyStrengths.map((s) => `${s.title}: ${s.description}`)];
  heading('Company Facts', bulletLead(factBullets[0] ?? ''));
  for (const text of factBullets) bullet(text);

  heading('Our Services', services.length ? serviceHeight(services[0]) : 0);
  for (const s of services) {
    // A service's title stays with the start of its description.
    keepTogether(doc, serviceHeight(s));
    doc.font(BOLD_FONT).fontSize(12).fillColor(TEXT).text(s.title);
    body(s.description);
    for (const f of s.features) bullet(f);
    doc.moveDown(0.6);
  }

  heading('Our Team', team.length ? doc.font(BOLD_FONT).fontSize(11).currentLineHeight(true) + bodyLead(team[0].bio) : 0);
  for (const m of team) {
    if (doc.y > doc.page.height - 100) doc.addPage();
    doc.font(BOLD_FONT).fontSize(11).fillColor(TEXT).text(m.name, { continued: true }).font(BODY_FONT).fillColor(MUTED).text(`  ${m.position}`);
    body(m.bio);
    doc.moveDown(0.4);
  }

  const certificateBullets = certificates.map((c) => `${c.title} (${c.date}), ${c.issuer}`);
  heading('Certifications', bulletLead(certificateBullets[0] ?? ''));
  for (const text of certificateBullets) bullet(text);

  const contactBullets = [
    ...companyFacts.offices.map(
      (o) => `${o.name}: ${[o.streetAddress, o.addressLocality, o.addressRegion, o.postalCode].filter(Boolean).join(', ')}${o.addressCountry === 'US' ? ', United States' : ', Nigeria'}`,
    ),
    `Phone: ${company.phone}, ${company.alternatePhone}`,
    `Email: ${company.email}`,
    // Decision 300: a web address only; a refused one is left out of the profile.
    ...[safeHref(company.siteUrl)].filter((web) => web !== undefined).map((web) => `Web: ${web}`),
  ];
  heading('Contact', bulletLead(contactBullets[0]));
  for (const text of contactBullets) bullet(text);

  doc.end();
  return done;
}
