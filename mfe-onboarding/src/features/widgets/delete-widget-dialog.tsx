import { useQueryClient } from '@tanstack/react-query';
import { DeleteDialog } from '@console/shared/overlays';
import type { Widget } from '@console/shared/contracts';
import { deleteWidget, invalidateWidgets } from './api';

export const WIDGET_DELETED = 'Widget deleted.';
export const DELETE_ERROR_TITLE = 'Unable to delete widget';
export const DELETE_FAILED = 'The widget could not be deleted. Please try again.';

/**
 * Spec section 4: confirm, DELETE; success closes and toasts 'Widget deleted.' (2000 ms; where toasts show: TOAST_POSITION);
 * failure closes and, ERROR_DIALOG_DELAY_MS later, shows 'Unable to delete widget' with the server's
 * first message and no Cancel.
 */
export function DeleteWidgetDialog({ widget, onClose }: { widget: Widget | null; onClose: () => void }) {
  const client = useQueryClient();
  return (
    <DeleteDialog
      item={widget}
      onClose={onClose}
      title="Delete this widget?"
      describe={(shown) => (
        <p>
          The {shown.type} on {shown.url} stops working on your website. Its sign-ups stay in your lists.
        </p>
      )}
      remove={(shown) => deleteWidget(shown._id)}
      afterDelete={() => invalidateWidgets(client)}
      deletedText={WIDGET_DELETED}
      errorTitle={DELETE_ERROR_TITLE}
      failedText={DELETE_FAILED}
    />
  );
}
