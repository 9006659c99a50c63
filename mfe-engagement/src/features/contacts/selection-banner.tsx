import { Button } from '@console/shared/ui';
import { formatCount } from '@console/shared/format';
import { pluralContacts } from './contact-format';

/**
 * Gmail's pattern: once the whole page is picked, offer every contact that matches the filter; in
 * that mode, say so and offer to clear.
 */
export function SelectionBanner({
  mode,
  pageCount,
  total,
  onSelectAll,
  onClear,
}: {
  mode: 'page' | 'all';
  pageCount: number;
  total: number;
  onSelectAll: () => void;
  onClear: () => void;
}) {
  return (
    <div
      role="status"
      className="mb-2 flex flex-wrap items-center justify-center gap-2 rounded-control bg-brand-50 px-4 py-2 text-sm text-slate-800"
    >
      {mode === 'page' ? (
        <>
          <span>All {pluralContacts(pageCount)} on this page are selected.</span>
          <Button variant="link" onClick={onSelectAll}>
            Select all {formatCount(total)} contacts that match
          </Button>
        </>
      ) : (
        <>
          <span>All {pluralContacts(total)} that match are selected.</span>
          <Button variant="link" onClick={onClear}>
            Clear selection
          </Button>
        </>
      )}
    </div>
  );
}
