import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ERROR_DIALOG_DELAY_MS, TOAST_SHORT_DURATION, notify } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import type { Widget } from '@console/shared/contracts';
import { deleteWidget, invalidateWidgets } from './api';
import { deleteErrorMessage } from './delete-message';

export const WIDGET_DELETED = 'Widget deleted.';
export const DELETE_ERROR_TITLE = 'Unable to delete widget';

/**
 * Spec section 4: confirm, DELETE; success closes and toasts 'Widget deleted.' (top-right, 2000 ms);
 * failure closes and, ERROR_DIALOG_DELAY_MS later, shows 'Unable to delete widget' with the server's
 * first message and no Cancel.
 */
export function DeleteWidgetDialog({ widget, onClose }: { widget: Widget | null; onClose: () => void }) {
  const client = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Keep showing the last widget while the dialog fades out.
  const [shown, setShown] = useState(widget);
  if (widget !== null && widget !== shown) setShown(widget);

  const confirm = async () => {
    if (!widget) return;
    try {
      await deleteWidget(widget._id);
      onClose();
      notify.success(WIDGET_DELETED, { duration: TOAST_SHORT_DURATION });
      await invalidateWidgets(client);
    } catch (error) {
      onClose();
      const message = deleteErrorMessage(error);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setFailure(message), ERROR_DIALOG_DELAY_MS);
    }
  };

  return (
    <>
      <ConfirmDialog
        open={widget !== null}
        onClose={onClose}
        title="Delete this widget?"
        confirmText="Delete"
        confirmVariant="danger"
        cancelText="Cancel"
        onConfirm={confirm}
      >
        {shown && (
          <p>
            The {shown.type} on {shown.url} stops working on your website. Its sign-ups stay in your lists.
          </p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={failure !== null}
        onClose={() => setFailure(null)}
        title={DELETE_ERROR_TITLE}
        confirmText="OK"
        showCancel={false}
        onConfirm={() => setFailure(null)}
      >
        <p>{failure}</p>
      </ConfirmDialog>
    </>
  );
}
