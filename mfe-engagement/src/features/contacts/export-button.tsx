import { useState } from 'react';
import { ApiError, saveBlob } from '@console/shared/api';
import { Button, notify } from '@console/shared/ui';
import type { ContactFilter } from '@console/shared/contracts';
import { exportContacts } from './api';

export const EXPORT_FILE_NAME = 'contacts.csv';

/** "Export CSV": the contacts of the current filter as a file; busy while it downloads. */
export function ExportButton({ filter }: { filter: ContactFilter }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      saveBlob(await exportContacts(filter), EXPORT_FILE_NAME);
    } catch (error) {
      const message = error instanceof ApiError ? error.body.message : '';
      notify.error(message || 'The export failed. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" busy={busy} onClick={() => void run()}>
      Export CSV
    </Button>
  );
}
