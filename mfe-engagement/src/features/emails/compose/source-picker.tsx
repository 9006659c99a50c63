import { useId, useState } from 'react';
import { TextField } from '@console/shared/ui';

export interface SourceOption {
  id: string;
  name: string;
  /** e.g. '1,204 contacts'. */
  detail?: string;
}

/**
 * Choose lists and segments (a searchable checklist: Tab reaches the search box and each checkbox,
 * Space toggles). What is chosen shows as removable chips above the search.
 */
export function SourcePicker({
  legend,
  lists,
  segments,
  chosenLists,
  chosenSegments,
  onChange,
  disabled = false,
}: {
  legend: string;
  lists: readonly SourceOption[];
  segments: readonly SourceOption[];
  chosenLists: readonly string[];
  chosenSegments: readonly string[];
  onChange: (next: { lists: string[]; segments: string[] }) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const term = search.trim().toLowerCase();
  const match = (o: SourceOption) => term === '' || o.name.toLowerCase().includes(term);
  const toggle = (kind: 'lists' | 'segments', value: string) => {
    const current = kind === 'lists' ? chosenLists : chosenSegments;
    const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
    onChange({
      lists: kind === 'lists' ? next : [...chosenLists],
      segments: kind === 'segments' ? next : [...chosenSegments],
    });
  };
  const chips = [
    ...chosenLists.map((v) => ({ kind: 'lists' as const, id: v, name: lists.find((o) => o.id === v)?.name ?? v })),
    ...chosenSegments.map((v) => ({
      kind: 'segments' as const,
      id: v,
      name: segments.find((o) => o.id === v)?.name ?? v,
    })),
  ];
  const group = (kind: 'lists' | 'segments', title: string, options: readonly SourceOption[]) => {
    const shown = options.filter(match);
    const chosen = kind === 'lists' ? chosenLists : chosenSegments;
    return (
      <div role="group" aria-labelledby={`${id}-${kind}`}>
        <p id={`${id}-${kind}`} className="px-3 pt-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          {title}
        </p>
        {shown.length === 0 ? (
          <p className="px-3 py-1 text-sm text-slate-600">{options.length === 0 ? `No ${kind} yet.` : 'No match.'}</p>
        ) : (
          <ul>
            {shown.map((o) => (
              <li key={o.id}>
                <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-slate-50">
                  <input
                    type="checkbox"
                    className="accent-brand-600"
                    checked={chosen.includes(o.id)}
                    disabled={disabled}
                    onChange={() => toggle(kind, o.id)}
                  />
                  <span className="text-slate-900">{o.name}</span>
                  {o.detail && <span className="ml-auto text-xs text-slate-600">{o.detail}</span>}
                </label>
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  };
  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      {chips.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={`${legend}: chosen`}>
          {chips.map((chip) => (
            <li
              key={`${chip.kind}:${chip.id}`}
              className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-800"
            >
              {chip.name}
              <button
                type="button"
                aria-label={`Remove ${chip.name}`}
                onClick={() => toggle(chip.kind, chip.id)}
                className="rounded-full px-1 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <TextField
        type="search"
        label={`Search ${legend.toLowerCase()}`}
        hideLabel
        placeholder="Search lists and segments"
        value={search}
        maxLength={200}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && search) {
            event.preventDefault();
            setSearch('');
          }
        }}
      />
      <div className="max-h-56 overflow-y-auto rounded-control border border-slate-200 pb-2">
        {group('lists', 'Lists', lists)}
        {group('segments', 'Segments', segments)}
      </div>
    </fieldset>
  );
}
