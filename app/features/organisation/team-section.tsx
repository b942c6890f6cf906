import { Users } from 'lucide-react';
import { MEMBER_ROLE_LABELS, type Member, type MemberListResponse } from '../../../common/schemas/organisation.ts';
import { EmptyState, ErrorState } from '../../components/portal/empty-state.tsx';
import { EditMemberDialog, InviteMemberDialog, RemoveMemberDialog } from './member-dialogs.tsx';
import { useTeam } from './team-api.ts';

const INVITATION_TEXT: Record<Member['invitation'], string> = { accepted: 'Active', pending: 'Invitation sent', none: 'Invitation expired' };

function projectsText(member: Member, projects: MemberListResponse['projects']): string {
  if (member.projectIds.length === 0) return 'All projects';
  return projects
    .filter((p) => member.projectIds.includes(p._id))
    .map((p) => p.name)
    .join(', ');
}

/**
 * The client portal's Team section (decision 279), for the organisation's admins: its people with
 * their role, their projects and where their invitation stands; invite, edit and remove.
 */
export function TeamSection({ className }: { className?: string }) {
  const team = useTeam(true);
  const projects = team.data?.projects ?? [];
  const members = team.data?.members ?? [];
  return (
    <section aria-labelledby="team-heading" aria-busy={team.isPending || undefined} className={className}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="team-heading" className="text-lg font-semibold">
          Team
        </h2>
        {team.data ? <InviteMemberDialog projects={projects} /> : null}
      </div>
      {team.isPending ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">Loading your team...</p>
      ) : team.isError ? (
        <ErrorState title="Failed to load your team" error={team.error} onRetry={() => void team.refetch()} />
      ) : members.length <= 1 ? (
        <EmptyState icon={<Users className="size-8" aria-hidden="true" />} title="Only you so far" description="Invite colleagues to follow your projects with you." />
      ) : null}
      {members.length > 0 ? (
        <ul className="mt-3 grid gap-2" aria-label="Team members">
          {members.map((m) => (
            <li key={m._id} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
              <p className="font-semibold break-words">{m.name}</p>
              <p className="text-sm break-all text-slate-600 dark:text-slate-300">{m.email}</p>
              <p className="mt-1 text-sm">
                {MEMBER_ROLE_LABELS[m.memberRole].label} · {projectsText(m, projects)} · {INVITATION_TEXT[m.invitation]}
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <EditMemberDialog member={m} projects={projects} />
                {m.founder ? null : <RemoveMemberDialog member={m} />}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
