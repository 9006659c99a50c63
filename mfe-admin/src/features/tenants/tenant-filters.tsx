import type { TenantOptions } from '@console/shared/contracts';
import { Button, SelectField, TextField } from '@console/shared/ui';
import type { TenantUrlFilter } from './tenant-query';

type Choice = { value: string; label: string };

export interface TenantFiltersProps {
  options: TenantOptions | undefined;
  filters: Readonly<Record<string, string>>;
  onFilter: (key: TenantUrlFilter, value: string) => void;
  /** Several filters at once (a preset range clears the custom days). */
  onFilters: (changes: Partial<Record<TenantUrlFilter, string>>) => void;
  onClear: () => void;
  canClear: boolean;
}

function Choices({ all, choices }: { all: string; choices: readonly Choice[] }) {
  return (
    <>
      <option value="">{all}</option>
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </>
  );
}

/**
 * The grid's filters (spec section 3's tenant list query): plan, billing state, the date the tenant was
 * created (a preset range or a custom from/to), and a list of the platform tenant. The choices come
 * from GET /v1/tenants/options.
 */
export function TenantFilters({ options, filters, onFilter, onFilters, onClear, canClear }: TenantFiltersProps) {
  const custom = filters.dateRange === 'custom';
  return (
    <>
      <SelectField
        label="Plan"
        value={filters.plan ?? ''}
        onChange={(event) => onFilter('plan', event.target.value)}
        containerClassName="w-40"
      >
        <Choices all="All plans" choices={options?.plans ?? []} />
      </SelectField>
      <SelectField
        label="Billing state"
        value={filters.billing_state ?? ''}
        onChange={(event) => onFilter('billing_state', event.target.value)}
        containerClassName="w-44"
      >
        <Choices all="All billing states" choices={options?.billing_states ?? []} />
      </SelectField>
      <SelectField
        label="Created"
        value={filters.dateRange ?? 'all_time'}
        onChange={(event) => {
          const range = event.target.value;
          if (range === 'custom') onFilter('dateRange', range);
          else onFilters({ dateRange: range === 'all_time' ? '' : range, dateFrom: '', dateTo: '' });
        }}
        containerClassName="w-44"
      >
        {(options?.date_ranges ?? [{ value: 'all_time', label: 'All time' }]).map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </SelectField>
      {custom && (
        <>
          <TextField
            type="date"
            label="From"
            value={filters.dateFrom ?? ''}
            max={filters.dateTo || undefined}
            onChange={(event) => onFilter('dateFrom', event.target.value)}
            containerClassName="w-40"
          />
          <TextField
            type="date"
            label="To"
            value={filters.dateTo ?? ''}
            min={filters.dateFrom || undefined}
            onChange={(event) => onFilter('dateTo', event.target.value)}
            containerClassName="w-40"
          />
        </>
      )}
      {(options?.lists.length ?? 0) > 0 && (
        <SelectField
          label="List"
          value={filters.listId ?? ''}
          onChange={(event) => onFilter('listId', event.target.value)}
          containerClassName="w-48"
        >
          <Choices all="All lists" choices={options?.lists ?? []} />
        </SelectField>
      )}
      {canClear && (
        <Button variant="link" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </>
  );
}
