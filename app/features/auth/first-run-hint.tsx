import { useEffect, useState } from 'react';
import { fetchSetupStatus } from './setup-api.ts';

/**
 * On the admin login while no admin exists (and only to a caller on an admin network): where the
 * one-time set-up link is (decision 160).
 */
export function FirstRunHint() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    fetchSetupStatus()
      .then((res) => setOpen(res.open))
      .catch(() => setOpen(false));
  }, []);
  if (!open) return null;
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
