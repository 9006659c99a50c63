import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { ApiKey } from '@console/shared/contracts';
import { ConfirmDialog } from '@console/shared/overlays';
import { notify } from '@console/shared/ui';
import { invalidateKeys, revokeKey } from './api';
import { keyLabel } from './key-texts';

/** Revoke a key after confirming (DELETE /v1/api-keys/{id}): refused from its next request on. Mount with a key per opening. */
export function RevokeKeyDialog({ apiKey, open, onClose }: { apiKey: ApiKey; open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const confirm = async () => {
    await revokeKey(apiKey._id);
    await invalidateKeys(client);
    notify.success(`${apiKey.name} was revoked.`);
    onClose();
  };
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Revoke ${apiKey.name}?`}
      confirmVariant="danger"
      cancelText="Cancel"
      onConfirm={confirm}
      onError={(error) => {
        onClose();
        notify.error(messageOf(error, 'The key could not be revoked.'));
      }}
    >
      <p className="text-slate-700">
        {keyLabel(apiKey)} stops working with its next request, wherever it is used. This cannot be undone: to connect
        again, create a new key.
      </p>
    </ConfirmDialog>
  );
}
