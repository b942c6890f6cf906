import type { SetupAdminBody, SetupInspectResponse, SetupStatusResponse } from '../../../common/schemas/setup.ts';
import type { LoginResponse } from '../../../common/schemas/auth.ts';
import { apiFetch } from '../../lib/api.ts';

// The first-run set-up calls (server/modules/setup/setup.routes.ts).

export const fetchSetupStatus = () => apiFetch<SetupStatusResponse>('/setup/status', { fallbackMessage: 'Could not check the set-up.' });

export const inspectSetupLink = (token: string) =>
  apiFetch<SetupInspectResponse>('/setup/inspect', { json: { token }, fallbackMessage: 'Could not check this set-up link.' });

export const createFirstAdmin = (body: SetupAdminBody) =>
  apiFetch<LoginResponse>('/setup/admin', { json: body, fallbackMessage: 'Could not create the admin account.' });
