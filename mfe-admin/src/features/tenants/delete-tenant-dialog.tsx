import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { Tenant } from '@console/shared/contracts';
import { Dialog } from '@console/shared/overlays';
import { Button, TextField, notify } from '@console/shared/ui';
import { deleteTenant, dropTenant, invalidateTenants } from './api';
import { deleteConfirmed } from './delete-rule';

/**
 * Delete a tenant (DELETE /v1/tenants/{id}) after typing its name. The tenant leaves the grid at once;
 * its data is removed by a background job. A failure keeps the dialog open with the server's message.
 * Mount with a key per opening.
 */
export function DeleteTenantDialog({ tenant, open, onClose }: { tenant: Tenant; open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const formId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ready = deleteConfirmed(typed, tenant.name);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError(null);
    try {
      await deleteTenant(tenant._id);
      dropTenant(client, tenant._id);
      notify.success(`${tenant.name} was deleted.`);
      onClose();
      void invalidateTenants(client);
    } catch (failure) {
      setError(messageOf(failure, 'The tenant could not be deleted.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Delete ${tenant.name}?`}
      dismissible={!busy}
      initialFocus={inputRef}
      testId="delete-tenant-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="danger" busy={busy} disabled={!ready}>
            Delete
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="space-y-3" onSubmit={(event) => void confirm(event)}>
        <p className="text-slate-700">
          The tenant, its users, contacts, campaigns and community are removed for good. Its people lose access at once.
        </p>
        <TextField
          ref={inputRef}
          label={`Type ${tenant.name} to confirm`}
          autoComplete="off"
          value={typed}
          readOnly={busy}
          onChange={(event) => setTyped(event.target.value)}
        />
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
