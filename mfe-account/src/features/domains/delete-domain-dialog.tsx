import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { SendingDomain } from '@console/shared/contracts';
import { ConfirmDialog } from '@console/shared/overlays';
import { notify } from '@console/shared/ui';
import { deleteDomain, invalidateDomains } from './api';

/** Delete a domain after confirming (DELETE /v1/domains/{id}). Mount with a key per opening. */
export function DeleteDomainDialog({
  domain,
  open,
  onClose,
  onDeleted,
}: {
  domain: SendingDomain;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const client = useQueryClient();
  const confirm = async () => {
    await deleteDomain(domain._id);
    await invalidateDomains(client);
    notify.success(`${domain.domain} was deleted.`);
    onDeleted();
  };
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Delete ${domain.domain}?`}
      confirmVariant="danger"
      cancelText="Cancel"
      onConfirm={confirm}
      onError={(error) => {
        onClose();
        notify.error(messageOf(error, 'The domain could not be deleted.'));
      }}
    >
      <p className="text-slate-700">
        E-mails can no longer be sent from {domain.domain}. Its DNS records stay where you published them; remove them
        at your DNS provider. To use the domain again, add it and publish new records.
      </p>
    </ConfirmDialog>
  );
}
