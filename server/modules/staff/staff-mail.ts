import type { FastifyInstance } from 'fastify';
import { PATHS } from '../../../common/paths.ts';
import type { StaffRole } from '../../../common/permissions.ts';
import { STAFF_ROLE_LABELS } from '../../../common/schemas/staff.ts';
import { mailDocument } from '../../mail/layout.ts';
import { escapeHtml, type MailInput } from '../../mail/mailer.ts';
import { publishedCompany } from '../site-content/published-company.ts';

/** The set-password link (the same page as a client's invitation); the token travels in the fragment, never in a log. */
export const staffInvitationUrl = (app: FastifyInstance, token: string) => `${new URL(app.config.publicUrl).origin}${PATHS.setPassword}#token=${token}`;

/** The mail that invites a staff member: choose a password, then sign in on the staff sign-in page. */
export function staffInvitationMail(app: FastifyInstance, member: { name: string; email: string; role: StaffRole }, url: string): MailInput {
  const company = publishedCompany(app);
  const subject = `Your ${company.shortName} staff account`;
  const role = STAFF_ROLE_LABELS[member.role];
  const lines = [
    `${company.name} has opened a staff account for you with the role ${role}.`,
    'Choose your password with the link below (valid for 7 days, usable once), then sign in with this e-mail address from an allowed network and set up your authenticator app.',
  ];
  return {
    to: member.email,
    kind: 'staff-invitation',
    subject,
    text: [`Hello ${member.name},`, '', ...lines, url, '', 'If you did not expect this e-mail, you can ignore it.'].join('\n'),
    html: mailDocument(
      subject,
      `<p>Hello ${escapeHtml(member.name)},</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(url)}">Choose your password</a></p><p>If you did not expect this e-mail, you can ignore it.</p>`,
    ),
  };
}
