import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { formErrorsOf } from '@console/shared/api';
import type { Profile } from '@console/shared/contracts';
import { Link } from '@console/shared/router';
import { Button, TextField, notify } from '@console/shared/ui';
import { cancelEmailChange, PROFILE_KEY } from './api';
import { ChangeEmailDialog } from './change-email-dialog';

const CANCEL_FAILED = 'The change could not be cancelled. Please try again.';

function copyEmail(email: string) {
  navigator.clipboard.writeText(email).then(
    () => notify.success('E-mail address copied.'),
    () => notify.error('Could not copy: your browser blocked the clipboard.'),
  );
}

/**
 * The sign-in address (read-only here), copy, Change e-mail address (a dialog; confirmed from the new
 * address) and, while a new address waits for its confirmation, which one with Cancel change. Buttons
 * only, outside the profile form's Save: the address never changes with the names.
 */
export function EmailSection({ profile }: { profile: Profile }) {
  const client = useQueryClient();
  const [opening, setOpening] = useState(0);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [cancelling, setCancelling] = useState(false);

  const cancel = async () => {
    setCancelling(true);
    try {
      client.setQueryData(PROFILE_KEY, await cancelEmailChange());
      notify.success('The change of your e-mail address was cancelled.');
    } catch (error) {
      notify.error(formErrorsOf(error, CANCEL_FAILED).message ?? CANCEL_FAILED);
    } finally {
      setCancelling(false);
    }
  };

  return (
    <div>
      <TextField
        label="E-mail"
        type="email"
        value={profile.email}
        readOnly
        hint="Your e-mail address is your sign-in."
      />
      {profile.pending_email && (
        <p role="status" className="mt-2 text-sm text-slate-700">
          Waiting for you to confirm <strong>{profile.pending_email}</strong>: open the link we sent there.
        </p>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-4">
        <Button variant="secondary" size="sm" onClick={() => copyEmail(profile.email)}>
          Copy e-mail address
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            setOpening((n) => n + 1);
            setDialogOpen(true);
          }}
        >
          {profile.pending_email ? 'Send the link again' : 'Change e-mail address'}
        </Button>
        {profile.pending_email && (
          <Button variant="secondary" size="sm" busy={cancelling} onClick={() => void cancel()}>
            Cancel change
          </Button>
        )}
        <Link className="text-sm text-brand-700 underline" to="/account/change-password">
          Change password
        </Link>
      </div>
      <ChangeEmailDialog key={opening} open={dialogOpen} onClose={() => setDialogOpen(false)} />
    </div>
  );
}
