import { useId, useState, type FormEvent } from 'react';
import { Copy, UserPlus } from 'lucide-react';
import { suggestUsername } from '../../../common/schemas/clients.ts';
import { buttonClass, inputClass, labelClass } from '../../components/portal/empty-state.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { useCreateClient } from './clients-api.ts';

/** Staff add a client: name and e-mail (username suggested, editable); the invitation link is shown to copy. */
export function AddClientForm() {
  const id = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [usernameEdited, setUsernameEdited] = useState(false);
  const [invitation, setInvitation] = useState<{ name: string; username: string | null; url: string } | null>(null);
  const createClient = useCreateClient();
  const shownUsername = usernameEdited ? username : suggestUsername(name, email);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim() || !email.trim()) {
      toast({ title: 'Please fill in all fields', variant: 'destructive' });
      return;
    }
    try {
      const res = await createClient.mutateAsync({ name, email, username: shownUsername || undefined });
      toast({ title: 'Client created successfully', description: `An invitation was sent to ${res.client.email}.` });
      setInvitation({ name: res.client.name, username: res.client.username, url: res.invitationUrl });
      setName('');
      setEmail('');
      setUsername('');
      setUsernameEdited(false);
    } catch (err) {
      toastFailure('Failed to create client', err);
    }
  }

  async function copyLink(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Invitation link copied' });
    } catch {
      // Clipboard access can be refused; the link stays selectable in its field.
      (document.getElementById(`${id}-link`) as HTMLInputElement | null)?.select();
      toast({ title: 'Copy the selected link with Ctrl+C or your device menu' });
    }
  }

  return (
    <div className="grid gap-4">
      <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label="Add client">
        <div>
          <label htmlFor={`${id}-name`} className={labelClass}>
            Client name
          </label>
          <input id={`${id}-name`} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </div>
        <div>
          <label htmlFor={`${id}-email`} className={labelClass}>
            Email
          </label>
          <input
            id={`${id}-email`}
            type="email"
            inputMode="email"
            className={inputClass}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="off"
          />
        </div>
        <div>
          <label htmlFor={`${id}-username`} className={labelClass}>
            Username <span className="font-normal text-slate-600 dark:text-slate-400">(suggested, you can change it)</span>
          </label>
          <input
            id={`${id}-username`}
            className={inputClass}
            value={shownUsername}
            onChange={(e) => {
              setUsernameEdited(true);
              setUsername(e.target.value);
            }}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
        </div>
        <button type="submit" className={buttonClass('primary')} disabled={createClient.isPending}>
          <UserPlus className="size-4" aria-hidden="true" />
          {createClient.isPending ? 'Adding Client...' : 'Add Client'}
        </button>
      </form>
      {invitation ? (
        <div className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-800 dark:bg-emerald-950">
          <label htmlFor={`${id}-link`} className="mb-1 block font-semibold text-emerald-950 dark:text-emerald-100">
            Invitation link for {invitation.name}
          </label>
          <p className="mb-2 text-emerald-950 dark:text-emerald-100">
            Sent by e-mail{invitation.username ? `; their username is ${invitation.username}` : ''}. You can also copy it and send it another way.
          </p>
          <div className="flex gap-2">
            <input id={`${id}-link`} readOnly value={invitation.url} className={inputClass} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className={buttonClass('secondary')} onClick={() => copyLink(invitation.url)}>
              <Copy className="size-4" aria-hidden="true" />
              Copy link
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
