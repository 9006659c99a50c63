import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { notify } from '@console/shared/ui';
import type { BulkAction, ContactSelection } from '@console/shared/contracts';
import { bulkContacts, invalidateAudience, removeFromList } from './api';

const FAILED = 'The action could not be completed. Please try again.';

/**
 * Runs a bulk action on a selection: POST /v1/contacts/bulk, or on a list's members grid with picked
 * rows, DELETE /v1/lists/{id}/contacts. Toasts the server's message, refetches, and resolves to the
 * server's error for the list field (shown under it) or null.
 */
export function useBulkActions(fixedListId: string | undefined, onDone: () => void) {
  const client = useQueryClient();
  return useCallback(
    async (action: BulkAction, selection: ContactSelection, listId?: string): Promise<string | null> => {
      try {
        const result =
          action === 'remove_from_list' && fixedListId !== undefined && 'ids' in selection
            ? await removeFromList(fixedListId, selection.ids)
            : await bulkContacts({ action, selection, ...(listId === undefined ? {} : { listId }) });
        notify.success(result.message);
        onDone();
        await invalidateAudience(client);
        return null;
      } catch (error) {
        if (error instanceof ApiError) {
          const listError = error.fieldErrors().listId;
          if (listError) return listError;
          notify.error(error.body.message || FAILED);
        } else {
          notify.error(FAILED);
        }
        return null;
      }
    },
    [client, fixedListId, onDone],
  );
}
