/**
 * Staff roles and permissions (decision 268, first slice in decision 272). A staff account has one
 * role; a route names the one permission it needs (`config.access: { staff: 'audit.read' }`), never
 * a role, so that changing what a role may do is one line in ROLE_PERMISSIONS.
 */
export const STAFF_ROLES = ['owner', 'admin', 'project_manager', 'editor', 'support'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The closed list of staff permissions. A route naming anything else fails to register. */
export const PERMISSIONS = [
  ...(['clients.read', 'clients.write', 'projects.read', 'projects.write', 'staff.manage', 'security.manage'] as const),
  ...(['content.write', 'blog.write', 'newsletter.write', 'support.answer', 'submissions.read', 'audit.read'] as const),
  // Operational screens (the mail outbox and its delivery state): owner and admin (decision 273).
  'settings.manage',
  // Decision 277: who runs which project, and what a project manager cannot do for themselves:
  // create projects and clients, and archive or delete a client (with projects they may not see).
  'projects.assign',
  // The payment plan (decision 298): reading plans, invoices, payments and the overview; and changing them.
  'finance.read',
  'finance.write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

// Only the owner may change who is staff and how the site is secured: an admin who could grant
// themselves 'owner' would make the distinction meaningless.
const OWNER_ONLY: readonly Permission[] = ['staff.manage', 'security.manage'];

export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((p) => !OWNER_ONLY.includes(p)),
  project_manager: ['clients.read', 'clients.write', 'projects.read', 'projects.write', 'finance.read'],
  editor: ['content.write', 'blog.write', 'newsletter.write'],
  support: ['support.answer', 'submissions.read'],
};

export const isPermission = (value: unknown): value is Permission => PERMISSIONS.includes(value as Permission);

const isStaffRole = (value: unknown): value is StaffRole => STAFF_ROLES.includes(value as StaffRole);

/** Whether a staff role grants a permission (an unknown or missing role grants nothing). */
export function roleGrants(role: StaffRole | null | undefined, permission: Permission): boolean {
  return !!role && isStaffRole(role) && ROLE_PERMISSIONS[role].includes(permission);
}

/** Who a permission check is about: the signed-in user as GET /api/auth/me gives it (or nobody). */
interface PermissionHolder {
  role: 'admin' | 'client';
  staffRole?: StaffRole | null;
}

/**
 * Whether a signed-in user may do what a permission names: staff whose role grants it. Clients hold
 * no staff permission. The one check the admin screens use to decide what to show (decision 273);
 * the server's access layer decides what is allowed.
 */
export function can(user: PermissionHolder | null | undefined, permission: Permission): boolean {
  return !!user && user.role === 'admin' && roleGrants(user.staffRole, permission);
}

/** The permissions a staff role holds, in the list's order (none for a client or an unknown role). */
export const permissionsOf = (role: StaffRole | null | undefined): Permission[] => PERMISSIONS.filter((p) => roleGrants(role, p));
/** A client member's role in its organisation (decision 279). */
export const MEMBER_ROLES = ['admin', 'approver', 'member', 'finance'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What a client member may do beyond seeing its projects; a client route names one (`{ client: 'members.manage' }`). */
export const MEMBER_PERMISSIONS = {
  'members.manage': ['admin'],
  'approvals.decide': ['admin', 'approver'],
  'finance.read': ['admin', 'approver', 'finance'],
} as const satisfies Record<string, readonly MemberRole[]>;
export type MemberPermission = keyof typeof MEMBER_PERMISSIONS;

export const isMemberPermission = (value: unknown): value is MemberPermission => typeof value === 'string' && Object.hasOwn(MEMBER_PERMISSIONS, value);

/** Whether a member role grants a member permission (a missing role grants nothing). */
export function memberGrants(role: MemberRole | null | undefined, permission: MemberPermission): boolean {
  return !!role && (MEMBER_PERMISSIONS[permission] as readonly MemberRole[]).includes(role);
}
