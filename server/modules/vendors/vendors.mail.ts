import type { FastifyInstance } from 'fastify';
import { PATHS } from '../../../common/paths.ts';
import { VENDOR_FIELD_LABELS, VENDOR_TEXT_FIELDS, type VendorApplicationFields } from '../../../common/schemas/vendors.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailInput } from '../../mail/mailer.ts';
import { publishedCompany } from '../site-content/published-company.ts';

interface ApplicationForMail {
  id: string;
  reference: string;
  fields: VendorApplicationFields;
  documents: { kind: 'certification' | 'company-profile'; originalName: string; size: number }[];
}

const sizeWords = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** Tells staff (STAFF_EMAIL) about a new application, with every field and a link to review it. */
export function staffNotification(app: FastifyInstance, a: ApplicationForMail): MailInput {
  const mail = renderMail({
    subject: `New Vendor Registration: ${a.fields.companyName} (${a.reference})`,
    paragraphs: [`A vendor registration arrived from the website. Reference: ${a.reference}.`],
    fields: [
      ...VENDOR_TEXT_FIELDS.map((k): [string, string] => [VENDOR_FIELD_LABELS[k], a.fields[k]]),
      [
        'Documents',
        a.documents.length
          ? a.documents.map((d) => `${d.kind === 'company-profile' ? 'Company profile' : 'Certification'}: ${d.originalName} (${sizeWords(d.size)})`).join('\n')
          : 'none',
      ],
    ],
    action: { label: 'Review the application', url: `${app.config.publicUrl}${PATHS.adminVendorApplication(a.id)}` },
  });
  return { ...mail, to: app.config.STAFF_EMAIL, kind: 'vendor-application-staff', replyTo: a.fields.companyEmail };
}

/**
 * Thanks the applicant and gives the reference to quote. It goes to an address anyone can type into
 * the public form, so it carries no text from the form (decision 116): no names, nothing a sender
 * could turn into a message to a victim. Only our own words and the server-made reference.
 */
export function applicantAcknowledgement(app: FastifyInstance, a: ApplicationForMail): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: `We received your vendor registration (${a.reference})`,
    greeting: 'Hello,',
    paragraphs: [
      `Thank you for registering as a vendor with ${company.name}.`,
      `Your reference number is ${a.reference}. Please quote it whenever you write to us about this registration.`,
      'Our team reviews every registration and will contact you if we need anything else.',
      `If you did not fill in our vendor registration form, someone else typed this address: you can ignore this e-mail.`,
    ],
    footer: [company.name, company.address, `${company.phone} · ${company.email}`],
  });
  return { ...mail, to: a.fields.companyEmail, kind: 'vendor-application-ack', replyTo: company.email };
}
