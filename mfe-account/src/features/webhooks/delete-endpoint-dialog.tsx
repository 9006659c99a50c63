import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { WebhookEndpoint } from '@console/shared/contracts';
import { ConfirmDialog } from '@console/shared/overlays';
import { notify } from '@console/shared/ui';
import { deleteEndpoint, invalidateWebhooks } from './api';

/** Delete an endpoint after confirming. Mount with a key per opening. */
export function DeleteEndpointDialog({
  endpoint,
  open,
  onClose,
  onDeleted,
}: {
  endpoint: WebhookEndpoint;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const client = useQueryClient();
  const confirm = async () => {
    await deleteEndpoint(endpoint._id);
    await invalidateWebhooks(client);
    notify.success('Endpoint deleted.');
    onDeleted();
  };
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title="Delete this endpoint?"
      confirmVariant="danger"
      cancelText="Cancel"
      onConfirm={confirm}
      onError={(error) => {
        onClose();
        notify.error(messageOf(error, 'The endpoint could not be deleted.'));
      }}
    >
      <p className="text-slate-700">
        <span className="font-mono break-all">{endpoint.url}</span> receives no more events, and its log of attempts is
        deleted with it.
      </p>
    </ConfirmDialog>
  );
}
