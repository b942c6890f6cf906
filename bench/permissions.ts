// The cost of the permission check per request (decision 273), for npm run bench. A staff route now
// names a permission; the access layer's extra work over the plain 'staff' level is finding the
// route's permission and asking whether the caller's role grants it. Both paths run here exactly as
// the layer runs them (staffPermissionOf, roleGrants), in interleaved rounds (A, B, A, B, ...) after
// a warm-up, medians of the rounds: A is a 'staff' route (no permission), B a { staff: 'settings.manage' }
// route called by an owner (the longest list to search) and by an editor (refused after a full scan).
// The HTTP work of a request (tens of microseconds) is left out: it is the same on both paths.
import { roleGrants, type StaffRole } from '../common/permissions.ts';
import { staffPermissionOf, type Access } from '../server/plugins/access.ts';

interface BenchRow {
  name: string;
  value: string;
  baseline?: string;
  ratio?: string;
}

const ROUNDS = Number(process.env.BENCH_PERMISSION_ROUNDS ?? 9);
const CALLS = Number(process.env.BENCH_PERMISSION_CALLS ?? 2_000_000);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The layer's decision for one request, as in server/plugins/access.ts: true when refused. */
function refused(declared: Access, staffRole: StaffRole): boolean {
  const permission = staffPermissionOf(declared);
  return permission !== null && !roleGrants(staffRole, permission);
}

/** Nanoseconds per decision over one round (the refusals are counted so the work cannot be dropped). */
function round(declared: Access, staffRole: StaffRole): number {
  let refusals = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) if (refused(declared, staffRole)) refusals++;
  const ns = Number(process.hrtime.bigint() - start) / CALLS;
  if (refusals !== 0 && refusals !== CALLS) throw new Error('the decision changed between calls');
  return ns;
}

export default async function permissionRows(): Promise<BenchRow[]> {
  const staffLevel: Access = 'staff';
  const withPermission: Access = { staff: 'settings.manage' };
  const cases = [
    ['staff level', staffLevel, 'owner'],
    ['permission, owner', withPermission, 'owner'],
    ['permission, editor (refused)', withPermission, 'editor'],
  ] as const;
  for (const [, declared, role] of cases) round(declared, role); // warm-up
  const times = cases.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++) cases.forEach(([, declared, role], i) => times[i].push(round(declared, role)));
  const [base, owner, editor] = times.map(median);
  const fmt = (n: number) => n.toFixed(1);
  return [
    { name: 'access check per request, staff level (ns, median)', value: fmt(base) },
    { name: 'access check per request, { staff: permission } as owner (ns)', value: fmt(owner), baseline: fmt(base), ratio: fmt(owner - base) + ' ns more' },
    { name: 'access check per request, { staff: permission } as editor, refused (ns)', value: fmt(editor), baseline: fmt(base), ratio: fmt(editor - base) + ' ns more' },
  ];
}

// Run alone: node --import tsx bench/permissions.ts
if (import.meta.url === `file://${process.argv[1]}`) console.table(await permissionRows());
