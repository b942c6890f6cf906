import { describe, expect, it } from 'vitest';
import { can, isMemberPermission, MEMBER_PERMISSIONS, memberGrants, PERMISSIONS, permissionsOf, ROLE_PERMISSIONS, roleGrants, STAFF_ROLES } from './permissions.ts';

// Decision 268's table, pinned: a change to what a role may do must change this test too.
describe('staff permissions', () => {
  it('gives each role exactly the permissions of decision 268', () => {
    const all = [
      ...['audit.read', 'blog.write', 'clients.read', 'clients.write', 'content.write', 'finance.read', 'finance.write', 'newsletter.write'],
      ...['projects.assign', 'projects.read', 'projects.write', 'security.manage', 'settings.manage', 'staff.manage'],
      ...['submissions.read', 'support.answer'],
    ];
    expect(Object.fromEntries(STAFF_ROLES.map((role) => [role, [...ROLE_PERMISSIONS[role]].sort()]))).toEqual({
      owner: all,
      admin: all.filter((p) => p !== 'security.manage' && p !== 'staff.manage'),
      // Decision 298: a project manager reads the payment plan of their projects, never changes it.
      project_manager: ['clients.read', 'clients.write', 'finance.read', 'projects.read', 'projects.write'],
      editor: ['blog.write', 'content.write', 'newsletter.write'],
      support: ['submissions.read', 'support.answer'],
    });
    expect(PERMISSIONS).toHaveLength(16);
  });

  it('lets only owners and admins assign project managers (decision 277)', () => {
    expect(STAFF_ROLES.filter((role) => roleGrants(role, 'projects.assign'))).toEqual(['owner', 'admin']);
  });

  it('grants nothing to a missing or unknown role', () => {
    expect(roleGrants(null, 'audit.read')).toBe(false);
    expect(roleGrants(undefined, 'clients.read')).toBe(false);
    expect(roleGrants('superuser' as never, 'clients.read')).toBe(false);
    expect(roleGrants('owner', 'staff.manage')).toBe(true);
    expect(roleGrants('admin', 'staff.manage')).toBe(false);
  });

  it('answers can(user, permission) for staff by role and never for a client or nobody', () => {
    expect(can({ role: 'admin', staffRole: 'editor' }, 'blog.write')).toBe(true);
    expect(can({ role: 'admin', staffRole: 'editor' }, 'clients.read')).toBe(false);
    expect(can({ role: 'admin', staffRole: 'support' }, 'support.answer')).toBe(true);
    expect(can({ role: 'client', staffRole: 'owner' }, 'clients.read')).toBe(false);
    expect(can(null, 'clients.read')).toBe(false);
    expect(permissionsOf('support')).toEqual(['support.answer', 'submissions.read']);
    expect(permissionsOf(null)).toEqual([]);
  });

  it('pins the member permissions of decision 279, and grants nothing to a missing role', () => {
    expect(MEMBER_PERMISSIONS).toEqual({ 'members.manage': ['admin'], 'approvals.decide': ['admin', 'approver'], 'finance.read': ['admin', 'approver', 'finance'] });
    expect(memberGrants('finance', 'finance.read')).toBe(true);
    expect(memberGrants('member', 'members.manage')).toBe(false);
    expect(memberGrants(null, 'finance.read')).toBe(false);
    expect(isMemberPermission('members.manage')).toBe(true);
    expect(isMemberPermission('toString')).toBe(false);
  });
});
