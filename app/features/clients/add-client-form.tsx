import { useState, type FormEvent } from 'react';
import { UserPlus } from 'lucide-react';
import { USERNAME_RULE } from '../../../common/schemas/auth.ts';
import { suggestUsername } from '../../../common/schemas/clients.ts';
import { invitationMailText, type MailOutcome } from '../../../common/schemas/mail.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField } from '../../components/forms/fields.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useCreateClient, useUsernameCheck } from './clients-api.ts';
import { CopyableLink } from './copyable-link.tsx';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('add-client');

/** Staff add a client: name and e-mail (username suggested, editable); the invitation link is shown to copy. */
export function AddClientForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [usernameEdited, setUsernameEdited] = useState(false);
  // After a submit with a field missing, that field is marked invalid until it is filled in.
  const [missing, setMissing] = useState<{ name: boolean; email: boolean }>({ name: false, email: false });
  const [invitation, setInvitation] = useState<{ name: string; email: string; username: string | null; url: string; mail: MailOutcome } | null>(null);
  const createClient = useCreateClient();
  // Untouched, the field shows a free username made from the name; typed, it is checked for staff.
  const check = useUsernameCheck({ username: usernameEdited ? username : '', name });
  const shownUsername = usernameEdited ? username : (check.data?.suggestion ?? suggestUsername(name));
  const wellFormed = USERNAME_RULE.test(shownUsername.trim().toLowerCase());
  const taken = usernameEdited && wellFormed && check.data?.available === false;
  const malformed = usernameEdited && shownUsername.trim() !== '' && !wellFormed;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (!name.trim() || !email.trim()) {
      setMissing({ name: !name.trim(), email: !email.trim() });
      toasts.show({ title: 'Please fill in all fields', variant: 'destructive' });
      return;
    }
    try {
      const res = await createClient.mutateAsync({ name, email, username: shownUsername || undefined });
      toasts.show({
        title: 'Client created successfully',
        description:
          res.invitationMail === 'sent'
            ? `An invitation was sent to ${res.client.email}.`
            : 'The invitation e-mail was not sent: copy the link below and send it yourself.',
      });
      setInvitation({ name: res.client.name, email: res.client.email, username: res.client.username, url: res.invitationUrl, mail: res.invitationMail });
      setName('');
      setEmail('');
      setUsername('');
      setUsernameEdited(false);
    } catch (err) {
      toastFailure('Failed to create client', err);
    }
  }

  return (
    <div className="grid gap-4">
      <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label="Add client">
        <InputField
          label="Client name"
          value={name}
          invalid={missing.name}
          autoComplete="off"
          onChange={(e) => {
            setName(e.target.value);
            if (e.target.value.trim()) setMissing((m) => ({ ...m, name: false }));
          }}
        />
        <InputField
          label="Email"
          type="email"
          inputMode="email"
          value={email}
          invalid={missing.email}
          autoComplete="off"
          onChange={(e) => {
            setEmail(e.target.value);
            if (e.target.value.trim()) setMissing((m) => ({ ...m, email: false }));
          }}
        />
        <InputField
          label="Username"
          labelNote="(suggested, you can change it)"
          value={shownUsername}
          onChange={(e) => {
            setUsernameEdited(true);
            setUsername(e.target.value);
          }}
          invalid={taken || malformed}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          status={
            malformed ? (
              'Username: 3 to 40 lower-case letters, digits, dots, dashes or underscores'
            ) : !shownUsername.trim() || !check.data ? null : taken ? (
              <>
                The username {check.data.username} is already taken.{' '}
                <button type="button" className="font-semibold underline" onClick={() => setUsername(check.data!.suggestion)}>
                  Use {check.data.suggestion}
                </button>
              </>
            ) : (
              `${shownUsername.trim().toLowerCase()} is free.`
            )
          }
        />
        <button type="submit" className={buttonClass('primary')} disabled={createClient.isPending}>
          <UserPlus className="size-4" aria-hidden="true" />
          {createClient.isPending ? 'Adding Client...' : 'Add Client'}
        </button>
      </form>
      {invitation ? (
        <CopyableLink label={`Invitation link for ${invitation.name}`} url={invitation.url}>
          {invitationMailText(invitation.mail, invitation.email)}
          {invitation.username ? ` Their username is ${invitation.username}.` : ''}
        </CopyableLink>
      ) : null}
    </div>
  );
}
