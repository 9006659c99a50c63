import { useQueryClient } from '@tanstack/react-query';
import { DeleteDialog } from '@console/shared/overlays';
import { APPLET_MESSAGES, type Applet } from '@console/shared/contracts';
import { deleteApplet, invalidateApplets } from './api';

export const DELETE_APPLET_ERROR_TITLE = 'Unable to delete applet';
const DELETE_FAILED = 'The applet could not be deleted. Please try again.';

/**
 * Confirm, DELETE; success closes, toasts 'Applet deleted.' and reloads the list (spec section 4); failure
 * closes and then shows the server's message.
 */
export function DeleteAppletDialog({ applet, onClose }: { applet: Applet | null; onClose: () => void }) {
  const client = useQueryClient();
  return (
    <DeleteDialog
      item={applet}
      onClose={onClose}
      title="Delete this applet?"
      describe={(shown) => (
        <p>{shown.name} disappears from every tenant&apos;s Apps, and from the applets enabled in tenant settings.</p>
      )}
      remove={(shown) => deleteApplet(shown._id)}
      afterDelete={() => invalidateApplets(client)}
      deletedText={APPLET_MESSAGES.deleted}
      errorTitle={DELETE_APPLET_ERROR_TITLE}
      failedText={DELETE_FAILED}
    />
  );
}
