import '../zod-setup.ts';
import { z } from 'zod';
import { MEMBER_ROLES } from '../permissions.ts';
import { singleLineText, storableText } from './text.ts';
import { mailOutcomeSchema } from './mail.ts';
import { okResponse } from './ok-response.ts';
import { NOTHING_TO_CHANGE, namesAField } from './patch.ts';

// A client organisation's people, managed by its admins from the portal (decision 279).

/** How the portal names each member role, and what it lets the person do. */
export const MEMBER_ROLE_LABELS: Record<(typeof MEMBER_ROLES)[number], { label: string; hint: string }> = {
  admin: { label: 'Admin', hint: 'Sees everything and manages the team' },
  approver: { label: 'Approver', hint: 'Can approve on behalf of the organisation' },
  member: { label: 'Member', hint: 'Follows projects and sends messages' },
  finance: { label: 'Finance', hint: 'Sees invoices and payments' },
};

const MAX_LIMITED_PROJECTS = 200;

const memberSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  memberRole: z.enum(MEMBER_ROLES),
  /** The projects this member is limited to; empty: every project of the organisation. */
  projectIds: z.array(z.string()),
  /** accepted: a password is set; pending: the invitation link is live; none: it expired or was revoked. */
  invitation: z.enum(['pending', 'accepted', 'none']),
  /** The organisation's founding account (its id is the organisation's): staff's contact, never removed from here. */
  founder: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberListResponseSchema = okResponse({
  members: z.array(memberSchema),
  /** The organisation's projects, to limit a member to some of them. */
  projects: z.array(z.object({ _id: z.string(), name: z.string(), code: z.string() })),
});
export type MemberListResponse = z.infer<typeof memberListResponseSchema>;

const projectIdsSchema = z.array(z.uuid('Choose projects from the list')).max(MAX_LIMITED_PROJECTS).transform((ids) => [...new Set(ids)]);

export const inviteMemberBodySchema = z
  .object({
    name: singleLineText('Name').min(1, 'Name is required').max(200),
    email: storableText().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address').max(254)),
    memberRole: z.enum(MEMBER_ROLES, 'Choose a role'),
    projectIds: projectIdsSchema.optional().default([]),
  })
  .strict();
export type InviteMemberBody = z.input<typeof inviteMemberBodySchema>;

export const inviteMemberResponseSchema = okResponse({ member: memberSchema, invitationMail: mailOutcomeSchema });

/** PATCH: a new role, new project limits (empty: all projects), or both. */
export const updateMemberBodySchema = z
  .object({ memberRole: z.enum(MEMBER_ROLES, 'Choose a role'), projectIds: projectIdsSchema })
  .partial()
  .strict()
  .refine(namesAField, NOTHING_TO_CHANGE);
export type UpdateMemberBody = z.input<typeof updateMemberBodySchema>;

export const memberResponseSchema = okResponse({ member: memberSchema });

export const ORGANISATION_TEXTS = {
  notFound: 'Member not found',
  lastAdmin: 'An organisation needs at least one admin: make someone else an admin first.',
  founder: 'This is your organisation’s main account and cannot be removed here. Please contact us to change it.',
  foreignProject: 'Choose projects of your organisation only.',
  taken: 'An account with this e-mail address already exists',
} as const;
