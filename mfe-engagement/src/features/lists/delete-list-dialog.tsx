import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { notify } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import type { List } from '@console/shared/contracts';
import { deleteList, invalidateLists } from './api';
import { formatMembers } from './list-columns';

/** "Delete list <name>? Its N contacts stay in your audience." Confirmed, then DELETE /v1/lists/{id}. */
export function DeleteListDialog({
  list,
  onClose,
  onDeleted,
}: {
  list: List | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const client = useQueryClient();
  // Keep showing the last list while the dialog fades out.
  const [shown, setShown] = useState(list);
  if (list !== null && list !== shown) setShown(list);
  const count = shown?.member_count ?? 0;
  return (
    <ConfirmDialog
      open={list !== null}
      onClose={onClose}
      title={list ? `Delete list ${list.name}?` : ''}
      confirmVariant="danger"
      cancelText="Cancel"
      onConfirm={async () => {
        if (!list) return;
        try {
          const result = await deleteList(list._id);
          notify.success(result.message || 'List deleted.');
          onClose();
          onDeleted?.();
          await invalidateLists(client);
        } catch (error) {
          onClose();
          notify.error(
            error instanceof ApiError && error.body.message ? error.body.message : 'The list could not be deleted.',
          );
        }
      }}
    >
      {shown && (
        <p>
          Its {formatMembers(count)} {count === 1 ? 'contact stays' : 'contacts stay'} in your audience.
        </p>
      )}
    </ConfirmDialog>
  );
}
