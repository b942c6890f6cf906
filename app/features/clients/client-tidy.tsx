import type { Client, ClientStatus } from '../../../common/schemas/clients.ts';
import { ListViewControls, TidyActions, type TidyTexts } from '../../components/portal/tidy-actions.tsx';
import { useArchiveClient, useDeleteClient, type ClientListView } from './clients-api.ts';

// Archive, restore and delete of a client, and the list's filter and order (issue 22, decisions 247-249).

const STATUS_LABELS: Record<ClientStatus, string> = { new: 'New', 'in-progress': 'In progress', completed: 'Completed' };

/** The status filter and the order of the client list. */
export function ClientListControls({ view, onChange }: { view: ClientListView; onChange: (view: ClientListView) => void }) {
  return <ListViewControls view={view} onChange={onChange} statusLabels={STATUS_LABELS} currentLabel="Current clients" />;
}

const CLIENT_TEXTS: TidyTexts = {
  kind: 'client',
  archived: (name) => `${name} archived: signed out, sign-in refused`,
  restored: (name) => `${name} restored: they can sign in again`,
  deletes: 'The client, its projects and its sign-in are removed for good.',
};

/** Archive or restore, and delete, for one client of the list. */
export function ClientTidyActions({ client }: { client: Client }) {
  const calls = { archive: useArchiveClient(), remove: useDeleteClient() };
  return <TidyActions record={client} calls={calls} texts={CLIENT_TEXTS} />;
}
