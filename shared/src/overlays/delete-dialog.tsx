import { useEffect, useRef, useState, type ReactNode } from 'react';
import { failureMessage } from '@console/shared/api';
import { ERROR_DIALOG_DELAY_MS, TOAST_SHORT_DURATION, notify } from '@console/shared/ui';
import { ConfirmDialog } from './confirm-dialog';

export interface DeleteDialogProps<T> {
  /** What is being deleted; the dialog is open while it is not null. */
  item: T | null;
  onClose: () => void;
  /** "Delete this widget?" */
  title: string;
  /** What deleting it means, under the title. */
  describe: (item: T) => ReactNode;
  /** The request; then `afterDelete` (reload the list). */
  remove: (item: T) => Promise<unknown>;
  afterDelete?: () => Promise<unknown>;
  /** The success toast ("Widget deleted."). */
  deletedText: string;
  /** The failure dialog's title ("Unable to delete widget") and its text when the server says nothing. */
  errorTitle: string;
  failedText: string;
}

/**
 * Delete after a confirmation (spec section 4's widget and applet deletes): success closes and toasts
 * `deletedText` (TOAST_SHORT_DURATION), then `afterDelete`; failure closes and, ERROR_DIALOG_DELAY_MS
 * later, shows `errorTitle` with the server's first message ({@link failureMessage}) and no Cancel.
 */
export function DeleteDialog<T>(props: DeleteDialogProps<T>) {
  const { item, onClose, remove, afterDelete } = props;
  const [failure, setFailure] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Keep showing the last item while the dialog fades out.
  const [shown, setShown] = useState(item);
  if (item !== null && item !== shown) setShown(item);

  const confirm = async () => {
    if (item === null) return;
    try {
      await remove(item);
      onClose();
      notify.success(props.deletedText, { duration: TOAST_SHORT_DURATION });
      await afterDelete?.();
    } catch (error) {
      onClose();
      const message = failureMessage(error, props.failedText);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setFailure(message), ERROR_DIALOG_DELAY_MS);
    }
  };

  return (
    <>
      <ConfirmDialog
        open={item !== null}
        onClose={onClose}
        title={props.title}
        confirmVariant="danger"
        cancelText="Cancel"
        onConfirm={confirm}
      >
        {shown !== null && props.describe(shown)}
      </ConfirmDialog>
      <ConfirmDialog
        open={failure !== null}
        onClose={() => setFailure(null)}
        title={props.errorTitle}
        showCancel={false}
        onConfirm={() => setFailure(null)}
      >
        <p>{failure}</p>
      </ConfirmDialog>
    </>
  );
}
