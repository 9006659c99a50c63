import { Button, SelectField } from '@console/shared';
import { CONTACT_SOURCES, CONTACT_STATUSES, type CustomAttribute, type List } from '@console/shared/contracts';
import { AttributeFilter } from './attribute-filter';
import { ColumnsMenu } from './columns-menu';
import { SOURCE_LABELS, STATUS_LABELS } from './contact-format';

const SEARCH_CLASS =
  'block w-full rounded-control border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset focus:outline-none';

export interface ContactsToolbarProps {
  searchInput: string;
  onSearchInput: (value: string) => void;
  filters: Readonly<Record<string, string>>;
  onFilter: (key: string, value: string) => void;
  onClearFilters: () => void;
  canClear: boolean;
  lists: readonly List[];
  /** False on a list's own members grid (the list is fixed). */
  showListFilter: boolean;
  attributes: readonly CustomAttribute[];
  visibleColumns: ReadonlySet<string>;
  onToggleColumn: (key: string) => void;
}

/** Search, the list / status / source / custom attribute filters, Clear filters and the Columns menu. */
export function ContactsToolbar({
  searchInput,
  onSearchInput,
  filters,
  onFilter,
  onClearFilters,
  canClear,
  lists,
  showListFilter,
  attributes,
  visibleColumns,
  onToggleColumn,
}: ContactsToolbarProps) {
  return (
    <div className="mb-4 space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <label className="block min-w-64 flex-1">
          <span className="mb-1 block text-sm font-medium text-slate-800">Search contacts</span>
          <input
            type="search"
            value={searchInput}
            maxLength={200}
            onChange={(event) => onSearchInput(event.target.value)}
            placeholder="Start of an e-mail, wallet or name"
            className={SEARCH_CLASS}
          />
        </label>
        <ColumnsMenu attributes={attributes} visible={visibleColumns} onToggle={onToggleColumn} />
      </div>
      <div className="flex flex-wrap items-end gap-3">
        {showListFilter && (
          <SelectField
            label="List"
            value={filters.listId ?? ''}
            onChange={(event) => onFilter('listId', event.target.value)}
          >
            <option value="">All lists</option>
            {lists.map((list) => (
              <option key={list._id} value={list._id}>
                {list.name}
              </option>
            ))}
          </SelectField>
        )}
        <SelectField
          label="Status"
          value={filters.status ?? ''}
          onChange={(event) => onFilter('status', event.target.value)}
        >
          <option value="">All statuses</option>
          {CONTACT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Source"
          value={filters.source ?? ''}
          onChange={(event) => onFilter('source', event.target.value)}
        >
          <option value="">All sources</option>
          {CONTACT_SOURCES.map((source) => (
            <option key={source} value={source}>
              {SOURCE_LABELS[source]}
            </option>
          ))}
        </SelectField>
        <AttributeFilter
          attributes={attributes}
          attribute={filters.attribute ?? ''}
          value={filters.attributeValue ?? ''}
          onAttribute={(key) => {
            onFilter('attributeValue', '');
            onFilter('attribute', key);
          }}
          onValue={(value) => onFilter('attributeValue', value)}
        />
        <Button variant="secondary" onClick={onClearFilters} disabled={!canClear}>
          Clear filters
        </Button>
      </div>
    </div>
  );
}
