import { useId, useState } from 'react';
import { clsx } from 'clsx';
import { ChevronDown, Mail, Users } from 'lucide-react';
import { nextClientStatus, type Client } from '../../../common/schemas/clients.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { PageNav } from '../../components/portal/page-nav.tsx';
import { toastFailure, useFailureToast } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { AddClientForm } from './add-client-form.tsx';
import { InvitationActions, InvitationState } from './client-invitation.tsx';
import { ClientStatusBadge } from './client-status-badge.tsx';
import { EditClientDialog } from './edit-client-dialog.tsx';
import { clientsOf, useClients, useUpdateClientStatus, type ClientListView } from './clients-api.ts';
import { ClientListControls, ClientTidyActions } from './client-tidy.tsx';
import { ArchivedBadge } from '../../components/portal/tidy-actions.tsx';
import type { MailOutcome } from '../../../common/schemas/mail.ts';

/** An e-mail address that may wrap after its dots and before its @, where a reader expects a break. */
function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=@)|(?<=\.)/);
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </span>
      ))}
    </>
  );
}

/**
 * The 'Client Management' accordion: the add-client form, then every client with its status badge
 * (click to move it on), its unread messages, its project count and whether it has set its password
 * (with the invitation actions until it has). Choosing a client selects it.
 */
export function ClientManagement({
  selectedClientId,
  onSelectClient,
  view,
  onViewChange,
  canManageClients,
}: {
  selectedClientId: string | null;
  /**
   * Whether the staff member may add, archive and delete clients (projects.assign: owners and admins,
   * decision 277). A project manager corrects the clients of their projects but does neither.
   */
  canManageClients: boolean;
  onSelectClient: (client: Client) => void;
  /** The list's filter and order; the page keeps them (in its address). */
  view: ClientListView;
  onViewChange: (view: ClientListView) => void;
}) {
  const [open, setOpen] = useState(true);
  // Links issued by 'Resend invitation' in this visit, per client: shown once, to copy (they are not stored).
  const [links, setLinks] = useState<Record<string, { url: string; mail: MailOutcome } | null>>({});
  const regionId = useId();
  const clients = useClients(view);
  const updateStatus = useUpdateClientStatus();
  const list = clientsOf(clients.data);
  useFailureToast(clients.error, 'Failed to load clients');

  async function cycle(client: Client) {
    try {
      await updateStatus.mutateAsync({ id: client._id, status: nextClientStatus(client.status) });
      toast({ title: 'Client status updated' });
    } catch (err) {
      toastFailure('Failed to update status', err);
    }
  }

  return (
    <section aria-labelledby={`${regionId}-heading`} className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <h2 id={`${regionId}-heading`}>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setOpen((v) => !v)}
          className="flex min-h-12 w-full items-center justify-between gap-2 rounded-xl px-4 py-3 text-left text-lg font-semibold hover:bg-slate-50 dark:hover:bg-slate-800"
        >
          <span className="flex items-center gap-2">
            <Users className="size-5" aria-hidden="true" />
            Client Management
          </span>
          <ChevronDown className={clsx('size-5 transition-transform', open && 'rotate-180')} aria-hidden="true" />
        </button>
      </h2>
      <div id={regionId} hidden={!open} className="grid gap-5 border-t border-slate-200 p-4 dark:border-slate-800">
        {canManageClients ? <AddClientForm /> : null}
        <div>
          <h3 className="mb-2 text-sm font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">Clients</h3>
          <ClientListControls view={view} onChange={onViewChange} />
          {clients.isPending ? (
            <InlineLoading label="Loading clients..." />
          ) : clients.isError ? (
            <ErrorState title="Failed to load clients" error={clients.error} onRetry={() => clients.refetch()} />
          ) : list.length === 0 ? (
            view.status ? (
              <EmptyState title="No clients to show" description="No client matches this filter." />
            ) : (
              <EmptyState title="No clients yet" description="Add your first client with the form above." />
            )
          ) : (
            <ul className="grid grid-cols-1 gap-2" aria-label="Clients">
              {list.map((client) => {
                const selected = client._id === selectedClientId;
                return (
                  <li
                    key={client._id}
                    className={clsx(
                      'grid grid-cols-1 gap-2 rounded-lg border p-2',
                      selected ? 'border-brand-700 bg-brand-50 dark:border-sky-300 dark:bg-slate-800' : 'border-slate-200 dark:border-slate-700',
                    )}
                  >
                    <div className="flex items-start gap-2">
                      <button
                        type="button"
                        onClick={() => onSelectClient(client)}
                        aria-current={selected ? 'true' : undefined}
                        className="min-h-11 min-w-0 flex-1 rounded-md px-2 py-1 text-left hover:bg-slate-50 dark:hover:bg-slate-800"
                      >
                        {/* Whole names and addresses, wrapped at word boundaries (an address at its @ and dots), never cut off. */}
                        <span className="block font-semibold break-words">
                          {client.name}
                          {client.archivedAt ? <ArchivedBadge /> : null}
                        </span>
                        <span className="block text-xs [overflow-wrap:anywhere] text-slate-600 dark:text-slate-300">
                          <EmailText email={client.email} />
                        </span>
                        <span className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-700 dark:text-slate-300">
                          <span>{client.projects === 1 ? '1 project' : `${client.projects} projects`}</span>
                          {client.unreadCount > 0 ? (
                            <span className="inline-flex items-center gap-1 rounded-full bg-red-700 px-2 font-semibold text-white">
                              <Mail className="size-3" aria-hidden="true" />
                              {client.unreadCount} unread
                            </span>
                          ) : (
                            <span>No unread messages</span>
                          )}
                        </span>
                        <span className="mt-1 block">
                          <InvitationState client={client} />
                        </span>
                      </button>
                      <ClientStatusBadge
                        status={client.status}
                        clientName={client.name}
                        busy={updateStatus.isPending && updateStatus.variables?.id === client._id}
                        onCycle={client.archivedAt ? undefined : () => cycle(client)}
                      />
                    </div>
                    <div className="grid gap-2 px-2">
                      <div className="flex flex-wrap items-start gap-2">
                        {/* An archived client is read-only (issue 22): restore it to correct it. */}
                        {client.archivedAt ? null : (
                          <EditClientDialog client={client} onInvitation={(link) => setLinks((all) => ({ ...all, [client._id]: link }))} />
                        )}
                        {canManageClients ? <ClientTidyActions client={client} /> : null}
                      </div>
                      <InvitationActions client={client} link={links[client._id] ?? null} onLink={(link) => setLinks((all) => ({ ...all, [client._id]: link }))} />
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          {clients.hasNextPage || clients.hasPreviousPage ? (
            <PageNav
              label="Client pages"
              pagination={clients.data?.pages[0]?.pagination}
              busy={clients.isFetchingNextPage || clients.isFetchingPreviousPage}
              onPrevious={clients.hasPreviousPage ? () => void clients.fetchPreviousPage() : null}
              onNext={clients.hasNextPage ? () => void clients.fetchNextPage() : null}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}
