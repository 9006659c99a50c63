import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { SelectField, TextField } from '@console/shared/ui';
import { searchContacts } from '../api';

/** Whose values fill the merge tags of a preview or a test: a contact of the tenant, or sample values. */
export interface PreviewContact {
  id: string;
  label: string;
}

const SEARCH_DELAY_MS = 400;

/** Find a contact by the beginning of its e-mail, wallet or name, and choose it (or sample values). */
export function PreviewContactPicker({
  value,
  onChange,
}: {
  value: PreviewContact | null;
  onChange: (contact: PreviewContact | null) => void;
}) {
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const contacts = useQuery({
    queryKey: ['templates', 'preview-contacts', search],
    queryFn: () => searchContacts(search),
    retry: false,
  });
  const options: PreviewContact[] = (contacts.data?.records ?? []).map((c) => ({
    id: c._id,
    label: c.email ?? c.wallet ?? c._id,
  }));
  if (value && !options.some((o) => o.id === value.id)) options.unshift(value);

  return (
    <div className="flex flex-wrap items-end gap-3">
      <TextField
        type="search"
        label="Find a contact"
        placeholder="E-mail, wallet or name"
        value={input}
        maxLength={200}
        onChange={(event) => setInput(event.target.value)}
        containerClassName="w-56"
      />
      <SelectField
        label="Preview as"
        value={value?.id ?? ''}
        onChange={(event) => onChange(options.find((o) => o.id === event.target.value) ?? null)}
        containerClassName="w-64"
      >
        <option value="">Sample values</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </SelectField>
      {contacts.isError && (
        <p className="text-sm text-slate-600">Contacts could not be loaded: sample values are used.</p>
      )}
    </div>
  );
}
