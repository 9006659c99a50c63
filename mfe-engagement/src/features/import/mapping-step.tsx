import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { Button, TextField, SELECT_CLASS } from '@console/shared/ui';
import type { CustomAttribute, ImportJob, ImportMode, ImportTarget, StartImportBody } from '@console/shared/contracts';
import { IMPORTS_KEY, allListsQuery, importJobKey, startImport, uploadImportFile } from './api';
import { formErrorsOf } from '@console/shared/api';
import { MAP_IDENTITY_MESSAGE, targetOptions } from './import-targets';
import { previewTable } from './read-csv-preview';
import { assignTarget, mapsIdentity, suggestMapping } from './suggest-mapping';

const NEW_LIST = '__new__';
/** Server field errors shown at their controls; any other goes to the form message. */
const PLACED_FIELDS = ['mapping', 'listId', 'newListName'];

type Phase = 'idle' | 'uploading' | 'starting';

interface Errors {
  fields: Record<string, string>;
  message: string | null;
}

function suggestFor(raw: string[][], hasHeader: boolean, attributes: readonly CustomAttribute[]): ImportTarget[] {
  const table = previewTable(raw, hasHeader);
  return suggestMapping(table.headers, attributes, table.rows);
}

/** Step 2: map columns, pick the target list and what happens to existing contacts, then upload and start. */
export function MappingStep({
  file,
  rows: raw,
  attributes,
  onBack,
  onStarted,
}: {
  file: File;
  rows: string[][];
  attributes: readonly CustomAttribute[];
  onBack: () => void;
  onStarted: (job: ImportJob) => void;
}) {
  const queryClient = useQueryClient();
  const ids = { header: useId(), list: useId(), mapping: useId(), mode: useId() };
  const lists = useQuery(allListsQuery());
  const [hasHeader, setHasHeader] = useState(true);
  const [mapping, setMapping] = useState<ImportTarget[]>(() => suggestFor(raw, true, attributes));
  const [listChoice, setListChoice] = useState('');
  const [newListName, setNewListName] = useState('');
  const [mode, setMode] = useState<ImportMode>('update');
  const [errors, setErrors] = useState<Errors>({ fields: {}, message: null });
  const [phase, setPhase] = useState<Phase>('idle');
  // The upload is kept when starting fails (a field error): fixing the mapping does not send the file again.
  const uploaded = useRef<ImportJob | null>(null);
  const table = useMemo(() => previewTable(raw, hasHeader), [raw, hasHeader]);
  const options = useMemo(() => targetOptions(attributes), [attributes]);

  const start = useMutation({
    mutationFn: async (body: StartImportBody) => {
      let job = uploaded.current;
      if (job === null) {
        setPhase('uploading');
        job = await uploadImportFile(file);
        uploaded.current = job;
      }
      setPhase('starting');
      return startImport(job._id, body);
    },
    onSuccess: async (job, body) => {
      await queryClient.invalidateQueries({ queryKey: IMPORTS_KEY });
      if (body.newListName !== undefined) await queryClient.invalidateQueries({ queryKey: ['lists'] });
      queryClient.setQueryData(importJobKey(job._id), job); // the progress view starts from it
      onStarted(job);
    },
    onError: (error) => {
      setPhase('idle');
      if (!(error instanceof ApiError && error.status === 400)) uploaded.current = null;
      const { fields, message } = formErrorsOf(error, 'The import could not be started. Please try again.');
      const others = Object.entries(fields).filter(([field]) => !PLACED_FIELDS.includes(field));
      setErrors({ fields, message: message ?? (others.map(([, text]) => text).join(' ') || null) });
    },
  });

  const toggleHeader = (next: boolean) => {
    setHasHeader(next);
    setMapping(suggestFor(raw, next, attributes));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fields: Record<string, string> = {};
    if (!mapsIdentity(mapping)) fields.mapping = MAP_IDENTITY_MESSAGE;
    if (listChoice === NEW_LIST && newListName.trim() === '') fields.newListName = 'Enter a name for the new list.';
    setErrors({ fields, message: null });
    if (Object.keys(fields).length > 0) return;
    const target =
      listChoice === NEW_LIST ? { newListName: newListName.trim() } : listChoice ? { listId: listChoice } : {};
    start.mutate({ mapping, has_header: hasHeader, mode, ...target });
  };

  const busy = start.isPending;
  return (
    <form noValidate onSubmit={submit} className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-panel border border-slate-200 bg-white p-4">
        <p className="text-sm text-slate-700">
          <span className="font-medium text-slate-900">{file.name}</span>{' '}
          <span className="text-slate-500">({formatBytes(file.size)})</span>
        </p>
        <Button variant="secondary" size="sm" onClick={onBack} disabled={busy}>
          Choose another file
        </Button>
      </div>

      <fieldset className="rounded-panel border border-slate-200 bg-white">
        <legend className="sr-only">Map columns</legend>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
          <h2 className="text-base font-semibold text-slate-900">Map columns</h2>
          <label htmlFor={ids.header} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              id={ids.header}
              type="checkbox"
              checked={hasHeader}
              onChange={(event) => toggleHeader(event.target.checked)}
              className="h-4 w-4 rounded border-slate-300 accent-brand-600"
            />
            First row is a header
          </label>
        </div>
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200" aria-describedby={ids.mapping}>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className="px-4 py-3 text-left text-sm font-semibold text-slate-900">
                  Column
                </th>
                <th scope="col" className="px-4 py-3 text-left text-sm font-semibold text-slate-900">
                  First values
                </th>
                <th scope="col" className="px-4 py-3 text-left text-sm font-semibold text-slate-900">
                  Import as
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {table.headers.map((header, index) => (
                <tr key={index}>
                  <td className="px-4 py-3 text-sm font-medium text-slate-900">{header}</td>
                  <td className="max-w-xs px-4 py-3 text-sm text-slate-600">
                    <ul className="space-y-0.5">
                      {table.rows.slice(0, 3).map((row, r) => (
                        <li key={r} className="truncate" title={row[index]}>
                          {row[index] || <span className="text-slate-400">(empty)</span>}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="w-64 px-4 py-3">
                    <select
                      aria-label={`Import "${header}" as`}
                      value={mapping[index] ?? ''}
                      onChange={(event) => setMapping(assignTarget(mapping, index, event.target.value || null))}
                      className={SELECT_CLASS}
                    >
                      {options.fields.map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.label}
                        </option>
                      ))}
                      {options.attributes.length > 0 && (
                        <optgroup label="Custom attributes">
                          {options.attributes.map((option) => (
                            <option key={option.value} value={option.value}>
                              {option.label}
                            </option>
                          ))}
                        </optgroup>
                      )}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div id={ids.mapping} className="border-t border-slate-200 px-4 py-3 text-sm">
          {errors.fields.mapping ? (
            <p role="alert" className="text-red-700">
              {errors.fields.mapping}
            </p>
          ) : (
            <p className="text-slate-500">
              Every contact needs an e-mail address or a wallet address. Columns set to Do not import are ignored.
            </p>
          )}
        </div>
      </fieldset>

      <div className="grid gap-6 rounded-panel border border-slate-200 bg-white p-4 md:grid-cols-2">
        <div className="space-y-3">
          <div>
            <label htmlFor={ids.list} className="mb-1 block text-sm font-medium text-slate-800">
              Add the contacts to a list
            </label>
            <select
              id={ids.list}
              value={listChoice}
              onChange={(event) => setListChoice(event.target.value)}
              aria-invalid={errors.fields.listId ? true : undefined}
              aria-describedby={errors.fields.listId ? `${ids.list}-error` : undefined}
              className={SELECT_CLASS}
            >
              <option value="">No list</option>
              <option value={NEW_LIST}>Create a new list</option>
              {lists.isPending && <option disabled>Loading lists…</option>}
              {(lists.data?.records.length ?? 0) > 0 && (
                <optgroup label="Existing lists">
                  {lists.data?.records.map((list) => (
                    <option key={list._id} value={list._id}>
                      {list.name}
                    </option>
                  ))}
                </optgroup>
              )}
            </select>
            {errors.fields.listId && (
              <p id={`${ids.list}-error`} className="mt-1 text-xs text-red-700">
                {errors.fields.listId}
              </p>
            )}
          </div>
          {listChoice === NEW_LIST && (
            <TextField
              label="New list name"
              value={newListName}
              onChange={(event) => setNewListName(event.target.value)}
              error={errors.fields.newListName}
              autoComplete="off"
            />
          )}
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-800">Existing contacts</legend>
          <p className="mb-2 text-xs text-slate-500">Contacts already stored with the same e-mail or wallet.</p>
          {(
            [
              ['update', "Update them with the file's values"],
              ['skip', 'Skip them'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 py-1 text-sm text-slate-700">
              <input
                type="radio"
                name={ids.mode}
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
                className="h-4 w-4 border-slate-300 accent-brand-600"
              />
              {label}
            </label>
          ))}
        </fieldset>
      </div>

      {errors.message && (
        <p role="alert" className="rounded-control bg-red-50 p-3 text-sm text-red-700">
          {errors.message}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p role="status" className="text-sm text-slate-600">
          {phase === 'uploading' ? 'Uploading…' : phase === 'starting' ? 'Starting the import…' : ''}
        </p>
        <Button type="submit" busy={busy}>
          Start import
        </Button>
      </div>
    </form>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
