import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ShieldOff } from 'lucide-react';
import { can, type Permission } from '../../../common/permissions.ts';
import { useCurrentUser } from './use-current-user.ts';

export interface AllowedPlace {
  to: string;
  label: string;
}

/**
 * What a staff member sees on an admin page their role may not use (decision 273): a plain
 * statement and the places they can open instead, in place of the page (whose calls the server
 * would refuse anyway). Never a spinner: it is shown once the signed-in user is known.
 */
export function NoAccess({ places }: { places: AllowedPlace[] }) {
  return (
    <section aria-labelledby="no-access-heading" className="mx-auto my-8 max-w-xl rounded-lg border border-slate-200 bg-white p-6 dark:border-slate-700 dark:bg-slate-900">
      <ShieldOff className="size-8 text-slate-600 dark:text-slate-300" aria-hidden="true" />
      <h2 id="no-access-heading" className="mt-3 text-xl font-bold text-slate-900 dark:text-slate-100">
        You do not have access to this page
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">Your staff role does not include this part of the admin area. Ask an owner if you need it.</p>
      {places.length > 0 ? (
        <>
          <h3 className="mt-4 font-semibold text-slate-900 dark:text-slate-100">Places you can use</h3>
          <ul className="mt-2 flex flex-col gap-1">
            {places.map((p) => (
              <li key={p.to}>
                <Link
                  to={p.to}
                  className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800 dark:text-sky-300 dark:hover:text-sky-200"
                >
                  {p.label}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** The page when the signed-in staff member's role grants the permission; otherwise `denied` (the no-access state). */
export function RequirePermission({ permission, denied, children }: { permission: Permission; denied: ReactNode; children: ReactNode }) {
  const { data: user } = useCurrentUser();
  return <>{can(user, permission) ? children : denied}</>;
}
