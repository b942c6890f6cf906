import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the accounts routes (see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'POST', url: '/api/auth/login', access: 'public' },
  { method: 'POST', url: '/api/auth/adminlogin', access: 'public' },
  { method: 'POST', url: '/api/auth/signup', access: 'public' },
  { method: 'GET', url: '/api/auth/me', access: 'authenticated' },
  { method: 'POST', url: '/api/auth/logout', access: 'public' },
  { method: 'POST', url: '/api/auth/mfa/verify', access: 'admin', allowsMfaPending: true, body: { code: '123456' } },
  { method: 'POST', url: '/api/auth/mfa/enrolment', access: 'admin', allowsMfaPending: true },
  { method: 'POST', url: '/api/auth/mfa/enrolment/confirm', access: 'admin', allowsMfaPending: true, body: { code: '123456' } },
  { method: 'GET', url: '/api/auth/mfa', access: 'admin' },
  { method: 'POST', url: '/api/auth/mfa/recovery-codes', access: 'admin', body: { password: 'not the password', code: '123456' } },
  { method: 'POST', url: '/api/auth/mfa/replacement', access: 'admin', body: { password: 'not the password', code: '123456' } },
  { method: 'POST', url: '/api/auth/mfa/disable', access: 'admin', body: { password: 'not the password', code: '123456' } },
  { method: 'POST', url: '/api/auth/password/forgot', access: 'public' },
  { method: 'POST', url: '/api/auth/password/reset', access: 'public' },
  { method: 'POST', url: '/api/auth/password/change', access: 'authenticated' },
  { method: 'POST', url: '/api/auth/invitation/inspect', access: 'public' },
  { method: 'POST', url: '/api/auth/password/reset/inspect', access: 'public' },
  { method: 'POST', url: '/api/auth/invitation/accept', access: 'public' },
  {
    method: 'GET',
    url: '/api/auth/invitations/:userId',
    access: 'admin',
    fixture: async ({ clientA, clientB }) => ({ own: { userId: clientA.id }, other: { userId: clientB.id } }),
  },
  {
    method: 'POST',
    url: '/api/auth/invitations/:userId',
    access: 'admin',
    // Test clients already have a password, so a new invitation is refused with 409 (still "reached").
    ownStatus: 409,
    fixture: async ({ clientA, clientB }) => ({ own: { userId: clientA.id }, other: { userId: clientB.id } }),
  },
  {
    method: 'DELETE',
    url: '/api/auth/invitations/:userId',
    access: 'admin',
    fixture: async ({ clientA, clientB }) => ({ own: { userId: clientA.id }, other: { userId: clientB.id } }),
  },
  { method: 'GET', url: '/api/auth/audit', access: 'admin' },
]);
