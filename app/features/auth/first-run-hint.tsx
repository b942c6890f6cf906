import { useEffect, useState } from 'react';
import type { SetupStatusResponse } from '../../../common/schemas/setup.ts';
import { fetchSetupStatus } from './setup-api.ts';

/** The admin login's one look at the server: is the set-up open, is the sign-in limited to some addresses. */
export function useSetupStatus(): SetupStatusResponse | null {
  const [status, setStatus] = useState<SetupStatusResponse | null>(null);
  useEffect(() => {
    fetchSetupStatus()
      .then(setStatus)
      .catch(() => setStatus(null));
  }, []);
  return status;
}

/**
 * The admin login's words on who may sign in: the specification's sentence when ADMIN_ALLOWED_CIDRS
 * is set; otherwise the truth, that any address may, and that staff should set the list.
 */
export function AdminAccessNote({ status }: { status: SetupStatusResponse | null }) {
  // Until the server has answered, claim neither.
  if (!status) return <p>All sign-in attempts are logged.</p>;
  if (!status.addressRestricted) {
    return (
      <p>
        Sign-in is open to any IP address: no list of allowed addresses is set. Staff should set one (<code className="font-mono">ADMIN_ALLOWED_CIDRS</code>)
        on the server. All sign-in attempts are logged.
      </p>
    );
  }
  return <p>Access is restricted to pre-authorized IP addresses. All sign-in attempts are logged.</p>;
}

/**
 * On the admin login while no admin exists (and only to a caller on an admin network): where the
 * one-time set-up link is (decision 160).
 */
export function FirstRunHint({ status }: { status: SetupStatusResponse | null }) {
  if (!status?.open) return null;
  return (
    <div role="note" className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <p className="font-semibold">First time here? No admin account exists yet.</p>
      <p className="mt-1">
        The server printed a one-time set-up link in its output when it started (the line begins “No admin account yet”). Open that
        link from this computer within the hour; restart the server for a new one. Or run{' '}
        <code className="font-mono">npm run admin:create</code> on the server.
      </p>
    </div>
  );
}
