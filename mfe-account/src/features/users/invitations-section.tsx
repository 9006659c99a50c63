import { useId, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { Invitation } from '@console/shared/contracts';
import { DataGrid } from '@console/shared/lists';
import { ConfirmDialog } from '@console/shared/overlays';
import { Button, notify } from '@console/shared/ui';
import { INVITATIONS_KEY, fetchInvitations, invalidateInvitations, resendInvitation, revokeInvitation } from './api';
import { invitationColumns } from './invitation-columns';

/** `seq` remounts the confirm dialog with fresh state for each opening. */
type RevokeState = { invitation: Invitation; open: boolean; seq: number } | null;

/** Invitations not accepted yet (pending and expired), with Resend and Revoke. */
export function InvitationsSection() {
  const headingId = useId();
  const client = useQueryClient();
  const invitations = useQuery({ queryKey: INVITATIONS_KEY, queryFn: fetchInvitations });
  const [resending, setResending] = useState<string | null>(null);
  const [revoke, setRevoke] = useState<RevokeState>(null);

  const columns = useMemo(() => {
    const resend = async (invitation: Invitation) => {
      setResending(invitation._id);
      try {
        const sent = await resendInvitation(invitation._id);
        await invalidateInvitations(client);
        notify.success(`Invitation sent again to ${sent.email}.`);
      } catch (error) {
        notify.error(messageOf(error, 'The invitation could not be sent again.'));
      } finally {
        setResending(null);
      }
    };
    return invitationColumns((invitation) => (
      <span className="inline-flex items-center gap-3">
        <Button
          variant="link"
          aria-label={`Resend the invitation to ${invitation.email}`}
          busy={resending === invitation._id}
          disabled={resending !== null}
          onClick={() => void resend(invitation)}
        >
          Resend
        </Button>
        <Button
          variant="link"
          className="text-red-700"
          aria-label={`Revoke the invitation to ${invitation.email}`}
          onClick={() => setRevoke((r) => ({ invitation, open: true, seq: (r?.seq ?? 0) + 1 }))}
        >
          Revoke
        </Button>
      </span>
    ));
  }, [client, resending]);

  const closeRevoke = () => setRevoke((r) => (r ? { ...r, open: false } : r));

  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        Invitations
      </h2>
      <p className="mt-1 text-sm text-slate-600">People invited who have not joined yet.</p>
      <div className="mt-3 rounded-panel border border-slate-200 bg-white">
        {invitations.isError && (
          <p role="alert" className="px-4 pt-3 text-sm text-red-700">
            {invitations.error.message}
          </p>
        )}
        <DataGrid<Invitation>
          label="Invitations"
          columns={columns}
          rows={invitations.data?.records ?? []}
          rowKey={(i) => i._id}
          loading={invitations.isPending}
          empty="No pending invitations."
        />
      </div>
      {revoke && (
        <ConfirmDialog
          key={revoke.seq}
          open={revoke.open}
          onClose={closeRevoke}
          title={`Revoke the invitation to ${revoke.invitation.email}?`}
          confirmVariant="danger"
          cancelText="Cancel"
          onConfirm={async () => {
            const { message } = await revokeInvitation(revoke.invitation._id);
            await invalidateInvitations(client);
            notify.success(message || 'Invitation revoked.');
            closeRevoke();
          }}
          onError={(error) => {
            closeRevoke();
            notify.error(messageOf(error, 'The invitation could not be revoked.'));
          }}
        >
          <p className="text-slate-700">The link in the e-mail stops working. You can invite them again later.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
