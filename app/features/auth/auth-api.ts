import type {
  AuditResponse,
  InvitationInfo,
  LoginResponse,
  MfaConfirmResponse,
  MfaEnrolmentResponse,
  MfaManageBody,
  MfaStatusResponse,
  PublicUser,
} from '../../../common/schemas/auth.ts';
import { apiFetch } from '../../lib/api.ts';

// The typed calls of the accounts API (server/modules/auth/auth.routes.ts).

export const loginClient = (body: { username: string; password: string }) =>
  apiFetch<LoginResponse>('/auth/login', { json: body, fallbackMessage: 'Invalid username or password.' });

export const loginAdmin = (body: { email: string; password: string }) =>
  apiFetch<LoginResponse>('/auth/adminlogin', { json: body, fallbackMessage: 'Unable to verify this session.' });

export const verifySecondFactor = (code: string) =>
  apiFetch<LoginResponse & { usedRecoveryCode: boolean }>('/auth/mfa/verify', { json: { code }, fallbackMessage: 'That code could not be checked.' });

/** Starts enrolment; from a full session (turning it on by choice) the password is asked again. */
export const startMfaEnrolment = (password?: string) =>
  password === undefined
    ? apiFetch<MfaEnrolmentResponse>('/auth/mfa/enrolment', { method: 'POST', fallbackMessage: 'Could not start the set-up.' })
    : apiFetch<MfaEnrolmentResponse>('/auth/mfa/enrolment', { json: { password }, fallbackMessage: 'Could not start the set-up.' });

export const fetchMfaStatus = () => apiFetch<MfaStatusResponse>('/auth/mfa', { fallbackMessage: 'Could not check two-step verification.' });

// Managing an active second factor: each asks for the password and a code again.
export const renewRecoveryCodes = (body: MfaManageBody) =>
  apiFetch<{ success: true; recoveryCodes: string[] }>('/auth/mfa/recovery-codes', { json: body, fallbackMessage: 'Could not make new recovery codes.' });

export const startMfaReplacement = (body: MfaManageBody) =>
  apiFetch<MfaEnrolmentResponse>('/auth/mfa/replacement', { json: body, fallbackMessage: 'Could not start the set-up.' });

export const turnOffMfa = (body: MfaManageBody) =>
  apiFetch<{ success: true; message: string }>('/auth/mfa/disable', { json: body, fallbackMessage: 'Could not turn off two-step verification.' });

export const confirmMfaEnrolment = (code: string) =>
  apiFetch<MfaConfirmResponse>('/auth/mfa/enrolment/confirm', { json: { code }, fallbackMessage: 'That code could not be checked.' });

export const logoutOnServer = () => apiFetch<{ success: true }>('/auth/logout', { method: 'POST' });

export const requestPasswordReset = (identifier: string) =>
  apiFetch<{ success: true; message: string }>('/auth/password/forgot', { json: { identifier }, fallbackMessage: 'Could not send the reset link. Please try again.' });

export const resetPassword = (body: { token: string; password: string }) =>
  apiFetch<{ success: true; role: PublicUser['role']; username: string | null }>('/auth/password/reset', { json: body, fallbackMessage: 'Could not reset the password.' });

export const inspectResetLink = (token: string) =>
  apiFetch<{ success: true; expiresAt: string }>('/auth/password/reset/inspect', { json: { token }, fallbackMessage: 'Could not check this link.' });

export const inspectInvitation = (token: string) =>
  apiFetch<InvitationInfo>('/auth/invitation/inspect', { json: { token }, fallbackMessage: 'Could not check this invitation link.' });

export const acceptInvitation = (body: { token: string; password: string }) =>
  apiFetch<{ success: true; role: PublicUser['role']; username: string | null }>('/auth/invitation/accept', { json: body, fallbackMessage: 'Could not set the password.' });

export const changePassword = (body: { currentPassword: string; newPassword: string }) =>
  apiFetch<{ success: true; message: string }>('/auth/password/change', { json: body, fallbackMessage: 'Could not change the password.' });

export const fetchLoginAudit = (query: { page: number; result?: string }, signal?: AbortSignal) => {
  const params = new URLSearchParams({ page: String(query.page) });
  if (query.result) params.set('result', query.result);
  return apiFetch<AuditResponse>(`/auth/audit?${params}`, { signal, fallbackMessage: 'Failed to load the login audit' });
};

/** Reads `#token=...` from the address (links put the token in the fragment so servers never log it). */
export function tokenFromHash(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return value && /^[A-Za-z0-9_-]{10,200}$/.test(value) ? value : null;
}
