import '../zod-setup.ts';
import { z } from 'zod';
import { STAFF_ROLES } from '../permissions.ts';
import { singleLineText, storableText } from './text.ts';
import { mailOutcomeSchema } from './mail.ts';
import { okResponse } from './ok-response.ts';

// The staff screen (decision 275): owners list, invite, change the role of, deactivate and
// reactivate staff accounts. Every route needs the 'staff.manage' permission.

/** How each role reads on the screen. */
export const STAFF_ROLE_LABELS: Record<(typeof STAFF_ROLES)[number], string> = {
  owner: 'Owner',
  admin: 'Admin',
  project_manager: 'Project manager',
  editor: 'Editor',
  support: 'Support',
};

export const LAST_OWNER_REFUSED = 'This is the last active owner. Make another staff member an owner first.';
export const STAFF_EMAIL_TAKEN = 'An account with this e-mail address already exists.';

const staffRoleSchema = z.enum(STAFF_ROLES, { error: 'Choose a role' });

const staffMemberSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  status: z.enum(['active', 'deactivated']),
  /** True until the person has chosen a password through the invitation link. */
  invited: z.boolean(),
  /** The last complete sign-in (after the second factor); null when never. */
  lastSignInAt: z.string().nullable(),
  mfaEnabled: z.boolean(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffListResponseSchema = okResponse({ staff: z.array(staffMemberSchema) });
export const staffMemberResponseSchema = okResponse({ member: staffMemberSchema });

export const staffParamsSchema = z.object({ id: z.uuid('Unknown staff member') });

export const staffInviteBodySchema = z.strictObject({
  name: singleLineText('Name').min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
  email: storableText().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address').max(254)),
  role: staffRoleSchema,
});
export type StaffInviteBody = z.infer<typeof staffInviteBodySchema>;

export const staffInviteResponseSchema = okResponse({
  member: staffMemberSchema,
  /** The set-password link, also e-mailed, so the owner can pass it on if the mail does not arrive. */
  url: z.string(),
  expiresAt: z.string(),
  mail: mailOutcomeSchema,
});

export const staffRoleBodySchema = z.strictObject({ role: staffRoleSchema });
export const staffStatusBodySchema = z.strictObject({ status: z.enum(['active', 'deactivated'], { error: 'Choose active or deactivated' }) });
