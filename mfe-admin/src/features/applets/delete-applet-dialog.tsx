import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { ERROR_DIALOG_DELAY_MS, TOAST_SHORT_DURATION, notify } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import { APPLET_MESSAGES, type Applet } from '@console/shared/contracts';
import { deleteApplet, invalidateApplets } from './api';

export const DELETE_APPLET_ERROR_TITLE = 'Unable to delete applet';
const DELETE_FAILED = 'The applet could not be deleted. Please try again.';

/** Spec section 8: the server's error body decides what the admin reads (its first field error, else its message). */
function deleteErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return DELETE_FAILED;
  const first = Object.values(error.fieldErrors())[0];
  return first ?? (error.body.message || DELETE_FAILED);
}

/**
 * Confirm, DELETE; success closes, toasts 'Applet deleted.' and reloads the list (spec section 4); failure
 * closes and then shows the server's message.
 */
export function DeleteAppletDialog({ applet, onClose }: { applet: Applet | null; onClose: () => void }) {
  const client = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Keep showing the last applet while the dialog fades out.
  const [shown, setShown] = useState(applet);
  if (applet !== null && applet !== shown) setShown(applet);

  const confirm = async () => {
    if (!applet) return;
    try {
      await deleteApplet(applet._id);
      onClose();
      notify.success(APPLET_MESSAGES.deleted, { duration: TOAST_SHORT_DURATION });
      await invalidateApplets(client);
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
        open={applet !== null}
        onClose={onClose}
        title="Delete this applet?"
        confirmText="Delete"
        confirmVariant="danger"
        cancelText="Cancel"
        onConfirm={confirm}
      >
        {shown && (
          <p>{shown.name} disappears from every tenant&apos;s Apps, and from the applets enabled in tenant settings.</p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={failure !== null}
        onClose={() => setFailure(null)}
        title={DELETE_APPLET_ERROR_TITLE}
        confirmText="OK"
        showCancel={false}
        onConfirm={() => setFailure(null)}
      >
        <p>{failure}</p>
      </ConfirmDialog>
    </>
  );
}
