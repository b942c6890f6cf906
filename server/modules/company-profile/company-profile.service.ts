import { BODY_FONT, BOLD_FONT, withUnicodeFonts } from '../../lib/pdf-fonts.ts';
import { loadPdfKit } from '../../lib/lazy-modules.ts';
import { company } from '../../../common/content/company.ts';
import { companyFacts, headlineFacts } from '../../../common/content/facts.ts';
import { services } from '../../../common/content/services.ts';
import { team } from '../../../common/content/team.ts';
import { certificates } from '../../../common/content/certificates.ts';
import { about } from '../../../common/content/about.ts';

const BRAND = '#083b6d';
const TEXT = '#1e293b';
const MUTED = '#475569';

let cached: Promise<Buffer> | null = null;

/** The company profile PDF, built once per process from the content modules (they change only on deploy). */
export function companyProfilePdf(): Promise<Buffer> {
  cached ??= renderCompanyProfile().catch((err) => {
    cached = null;
    throw err;
  });
  return cached;
}

async function renderCompanyProfile(): Promise<Buffer> {
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

  const heading = (text: string) => {
    if (doc.y > doc.page.height - 160) doc.addPage();
    doc.moveDown(1.2).font(BOLD_FONT).fontSize(16).fillColor(BRAND).text(text);
    doc.moveTo(doc.page.margins.left, doc.y + 2).lineTo(doc.page.width - doc.page.margins.right, doc.y + 2).lineWidth(1).strokeColor(BRAND).stroke();
    doc.moveDown(0.6);
  };
  const body = (text: string) => doc.font(BODY_FONT).fontSize(10.5).fillColor(TEXT).text(text, { align: 'left', lineGap: 2 });
  const bullet = (text: string) => doc.font(BODY_FONT).fontSize(10.5).fillColor(TEXT).text(`•  ${text}`, { indent: 10, lineGap: 1 });

  // Cover block
  doc.rect(0, 0, doc.page.width, 150).fill(BRAND);
  doc.fillColor('#ffffff').font(BOLD_FONT).fontSize(24).text(company.name, 56, 48, { width: doc.page.width - 112 });
  doc.font(BODY_FONT).fontSize(12).fillColor('#dbeafe').text(company.tagline, { width: doc.page.width - 112 });
  doc.y = 176;
  doc.font(BOLD_FONT).fontSize(12).fillColor(TEXT).text('Company Profile');
  doc.font(BODY_FONT).fontSize(10.5).fillColor(MUTED).text(`Registration number ${company.registrationNumber}  ·  Founded ${company.foundedYear}`);

  heading('Who We Are');
  for (const p of about.story) {
    body(p);
    doc.moveDown(0.4);
  }
  body(`Vision: ${about.vision}`);
  doc.moveDown(0.4);
  body(`Mission: ${about.mission}`);

  heading('Company Facts');
  for (const f of headlineFacts) bullet(`${f.label}: ${f.value}`);
  for (const s of companyFacts.keyStrengths) bullet(`${s.title}: ${s.description}`);

  heading('Our Services');
  for (const s of services) {
    if (doc.y > doc.page.height - 140) doc.addPage();
    doc.font(BOLD_FONT).fontSize(12).fillColor(TEXT).text(s.title);
    body(s.description);
    for (const f of s.features) bullet(f);
    doc.moveDown(0.6);
  }

  heading('Our Team');
  for (const m of team) {
    if (doc.y > doc.page.height - 100) doc.addPage();
    doc.font(BOLD_FONT).fontSize(11).fillColor(TEXT).text(m.name, { continued: true }).font(BODY_FONT).fillColor(MUTED).text(`  ${m.position}`);
    body(m.bio);
    doc.moveDown(0.4);
  }

  heading('Certifications');
  for (const c of certificates) bullet(`${c.title} (${c.date}), ${c.issuer}`);

  heading('Contact');
  for (const o of companyFacts.offices) {
    bullet(`${o.name}: ${[o.streetAddress, o.addressLocality, o.addressRegion, o.postalCode].filter(Boolean).join(', ')}${o.addressCountry === 'US' ? ', United States' : ', Nigeria'}`);
  }
  bullet(`Phone: ${company.phone}, ${company.alternatePhone}`);
  bullet(`Email: ${company.email}`);
  bullet(`Web: ${company.siteUrl}`);

  doc.end();
  return done;
}
