import { Button, SelectField, TextField } from '@console/shared/ui';
import { CONTACT_SOURCES, CONTACT_STATUSES, type CustomAttribute, type List } from '@console/shared/contracts';
import { AttributeFilter } from './attribute-filter';
import { ColumnsMenu } from './columns-menu';
import { SOURCE_LABELS, STATUS_LABELS } from './contact-format';

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
        <TextField
          type="search"
          label="Search contacts"
          placeholder="Start of an e-mail, wallet or name"
          maxLength={200}
          value={searchInput}
          onChange={(event) => onSearchInput(event.target.value)}
          containerClassName="min-w-64 flex-1"
        />
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
