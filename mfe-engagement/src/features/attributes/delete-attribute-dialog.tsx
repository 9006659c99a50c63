import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Spinner, notify } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import type { CustomAttribute } from '@console/shared/contracts';
import { ATTRIBUTES_KEY, deleteAttribute, fetchAttribute } from './api';
import { messageOf } from '@console/shared/api';
import { valueCountText } from './value-count-text';

/**
 * Confirm deleting an attribute. When it opens it asks the gateway how many contacts hold a value
 * (GET /v1/custom-attributes/{id}, value_count), with a spinner meanwhile.
 */
export function DeleteAttributeDialog({
  attribute,
  open,
  onClose,
}: {
  attribute: CustomAttribute;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: [...ATTRIBUTES_KEY, 'detail', attribute._id],
    queryFn: () => fetchAttribute(attribute._id),
    enabled: open,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });

  const confirm = async () => {
    await deleteAttribute(attribute._id);
    // Not the value count of the attribute just deleted (it would answer 404).
    await queryClient.invalidateQueries({ queryKey: ATTRIBUTES_KEY, predicate: (q) => q.queryKey[1] !== 'detail' });
    // Contacts show attribute values as columns and filters.
    void queryClient.invalidateQueries({ queryKey: ['contacts'] });
    notify.success('Attribute deleted.');
    onClose();
  };

  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Delete the attribute "${attribute.name}"?`}
      confirmVariant="danger"
      cancelText="Cancel"
      onConfirm={confirm}
      onError={(error) => notify.error(messageOf(error, 'The attribute could not be deleted.'))}
    >
      <div className="space-y-2" aria-live="polite">
        {detail.isFetching || detail.isPending ? (
          <p className="flex items-center gap-2 text-slate-600">
            <Spinner className="h-4 w-4" label="Counting contacts with a value" />
            Counting contacts with a value…
          </p>
        ) : detail.isError ? (
          <p className="text-slate-700">
            The number of contacts with a value could not be loaded. Deleting the attribute removes every value it
            holds.
          </p>
        ) : (
          <p className="text-slate-700">{valueCountText(detail.data.value_count)}</p>
        )}
        <p className="text-slate-500">This cannot be undone.</p>
      </div>
    </ConfirmDialog>
  );
}
