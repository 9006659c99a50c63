import { useQueryClient } from '@tanstack/react-query';
import { Button, notify } from '@console/shared/ui';
import { ConfirmDialog, Dialog } from '@console/shared/overlays';
import { messageOf } from '@console/shared/api';
import type { TemplateSummary } from '@console/shared/contracts';
import { deleteTemplate, invalidateTemplates } from './api';
import { isInUse, usageText } from './template-rules';

/**
 * Delete a template after confirming. A template still used by a scheduled e-mail or an active
 * automation cannot be deleted: the dialog says so and names what uses it instead of offering Delete.
 */
export function DeleteTemplateDialog({
  template,
  open,
  onClose,
}: {
  template: TemplateSummary;
  open: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const usage = template.used_by;
  const users = usage.names.length > 0 ? ` (${usage.names.join(', ')})` : '';

  if (isInUse(usage)) {
    return (
      <Dialog
        open={open}
        onClose={onClose}
        title={`"${template.name}" cannot be deleted`}
        testId="template-in-use-dialog"
        footer={<Button onClick={onClose}>Close Window</Button>}
      >
        <p>
          It is used by {usageText(usage)}
          {users}. Choose another template there, or wait until they have finished, then delete it.
        </p>
      </Dialog>
    );
  }

  const confirm = async () => {
    await deleteTemplate(template._id);
    await invalidateTemplates(client);
    notify.success('Template deleted.');
    onClose();
  };
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Delete the template "${template.name}"?`}
      confirmVariant="danger"
      cancelText="Cancel"
      onConfirm={confirm}
      onError={(error) => {
        onClose();
        notify.error(messageOf(error, 'The template could not be deleted.'));
      }}
    >
      <p className="text-slate-700">
        {usage.names.length > 0
          ? `It is still referenced by ${usage.names.join(', ')}, which will no longer find it. `
          : 'No scheduled e-mail or active automation uses it. '}
        Its versions are deleted with it.
      </p>
    </ConfirmDialog>
  );
}
