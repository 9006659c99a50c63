import { useQueryClient } from '@tanstack/react-query';
import { notify } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import type { Segment } from '@console/shared/contracts';
import { SEGMENTS_KEY, deleteSegment } from './api';
import { messageOf } from '@console/shared/api';

/** Confirm, then delete a saved segment (its contacts stay as they are). */
export function DeleteSegmentDialog({
  segment,
  open,
  onClose,
  onDeleted,
}: {
  segment: Segment;
  open: boolean;
  onClose: () => void;
  onDeleted: (segment: Segment) => void;
}) {
  const queryClient = useQueryClient();
  const confirm = async () => {
    await deleteSegment(segment._id);
    await queryClient.invalidateQueries({ queryKey: [...SEGMENTS_KEY, 'list'] });
    notify.success('Segment deleted.');
    onDeleted(segment);
    onClose();
  };
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Delete the segment "${segment.name}"?`}
      confirmVariant="danger"
      cancelText="Cancel"
      onConfirm={confirm}
      onError={(error) => notify.error(messageOf(error, 'The segment could not be deleted.'))}
    >
      <p className="text-slate-700">Only the segment is deleted: its contacts stay as they are.</p>
    </ConfirmDialog>
  );
}
