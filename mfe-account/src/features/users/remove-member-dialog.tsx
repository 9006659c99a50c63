import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { TeamMember } from '@console/shared/contracts';
import { ConfirmDialog } from '@console/shared/overlays';
import { notify } from '@console/shared/ui';
import { invalidateMembers, removeMember } from './api';
import { memberName } from './member-name';

/**
 * Remove a member after confirming (DELETE /v1/users/{id}). The gateway deletes the account and ends
 * every session of theirs at once; the dialog says so. A refusal (the last owner, yourself) closes the
 * dialog and shows the server's message. Mount with a key per opening.
 */
export function RemoveMemberDialog({
  member,
  tenantName,
  open,
  onClose,
}: {
  member: TeamMember;
  tenantName: string | null;
  open: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const name = memberName(member);
  const confirm = async () => {
    const { message } = await removeMember(member._id);
    await invalidateMembers(client);
    notify.success(message || `${name} was removed.`);
    onClose();
  };
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Remove ${name}?`}
      confirmVariant="danger"
      cancelText="Cancel"
      onConfirm={confirm}
      onError={(error) => {
        onClose();
        notify.error(messageOf(error, 'The member could not be removed.'));
      }}
    >
      <p className="text-slate-700">
        {member.email} loses access to {tenantName ?? 'your community'} at once: every session of theirs ends now, and
        they are signed out wherever they are signed in. To bring them back, invite them again.
      </p>
    </ConfirmDialog>
  );
}
