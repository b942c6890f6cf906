import { eachClient } from '../../../tests/helpers/access-fixtures.ts';
import { defineAccess, sameAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the accounts routes (see tests/helpers/access-table.ts).
export default defineAccess([
  // Public by design: signing in and out, signing up, and the password and invitation links (a token proves the caller).
  ...sameAccess('POST', 'public', [
    '/api/auth/login', '/api/auth/adminlogin', '/api/auth/signup', '/api/auth/logout',
    '/api/auth/password/forgot', '/api/auth/password/reset', '/api/auth/password/reset/inspect',
    '/api/auth/invitation/inspect', '/api/auth/invitation/accept',
  ]),
  { method: 'GET', url: '/api/auth/me', access: 'authenticated' },
  { method: 'POST', url: '/api/auth/mfa/verify', access: 'staff', allowsMfaPending: true, body: { code: '123456' } },
  { method: 'POST', url: '/api/auth/mfa/enrolment', access: 'staff', allowsMfaPending: true },
  { method: 'POST', url: '/api/auth/mfa/enrolment/confirm', access: 'staff', allowsMfaPending: true, body: { code: '123456' } },
  { method: 'GET', url: '/api/auth/mfa', access: 'staff' },
  { method: 'POST', url: '/api/auth/mfa/recovery-codes', access: 'staff', body: { password: 'not the password', code: '123456' } },
  { method: 'POST', url: '/api/auth/mfa/replacement', access: 'staff', body: { password: 'not the password', code: '123456' } },
  { method: 'POST', url: '/api/auth/mfa/disable', access: 'staff', body: { password: 'not the password', code: '123456' } },
  { method: 'POST', url: '/api/auth/password/change', access: 'authenticated' },
  { method: 'GET', url: '/api/auth/invitations/:userId', access: { staff: 'clients.read' }, fixture: eachClient('userId') },
  // Test clients already have a password, so a new invitation is refused with 409 (still "reached").
  { method: 'POST', url: '/api/auth/invitations/:userId', access: { staff: 'clients.write' }, ownStatus: 409, fixture: eachClient('userId') },
  { method: 'DELETE', url: '/api/auth/invitations/:userId', access: { staff: 'clients.write' }, fixture: eachClient('userId') },
  { method: 'GET', url: '/api/auth/audit', access: { staff: 'audit.read' } },
]);
