import { useId, useRef, useState, type DragEvent } from 'react';
import { Spinner } from '@console/shared/ui';
import { MAX_IMPORT_BYTES } from '@console/shared/contracts';
import { readCsvPreview } from './read-csv-preview';

type ReadState = { kind: 'idle' } | { kind: 'reading' } | { kind: 'error'; message: string };

/** Step 1: pick or drop a CSV file; its first rows are read for the preview. */
export function UploadStep({ onLoaded }: { onLoaded: (file: File, rows: string[][]) => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<ReadState>({ kind: 'idle' });
  const [dragging, setDragging] = useState(false);

  const fail = (message: string) => {
    setState({ kind: 'error', message });
    if (input.current) input.current.value = ''; // the same file can be chosen again
  };

  const take = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      fail('The file is larger than 512 MB. Split it into smaller files.');
      return;
    }
    setState({ kind: 'reading' });
    try {
      const rows = await readCsvPreview(file);
      if (rows.length === 0) fail('The file is empty.');
      else onLoaded(file, rows);
    } catch {
      fail('The file could not be read as CSV.');
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void take(event.dataTransfer.files[0]);
  };

  return (
    <div
      data-testid="csv-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={`rounded-panel border-2 border-dashed p-8 text-center transition-colors ${
        dragging ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-white'
      }`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="mx-auto h-10 w-10 text-slate-400" fill="none">
        <path
          d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2"
          stroke="currentColor"
          strokeWidth="1.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <p className="mt-3 text-sm text-slate-700">Drag and drop a CSV file here, or choose one.</p>
      <div className="mx-auto mt-4 max-w-sm text-left">
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-800">
          CSV file
        </label>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${inputId}-hint`}
          disabled={state.kind === 'reading'}
          onChange={(event) => void take(event.target.files?.[0])}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-control file:border-0 file:bg-brand-600 file:px-3 file:py-2 file:text-sm file:font-medium file:text-white hover:file:bg-brand-700"
        />
        <p id={`${inputId}-hint`} className="mt-1 text-xs text-slate-500">
          One contact per row, with an e-mail address or a wallet address (or both). Up to 512 MB.
        </p>
      </div>
      {state.kind === 'reading' && (
        <p className="mt-4 flex items-center justify-center gap-2 text-sm text-slate-600">
          <Spinner className="h-4 w-4" decorative />
          Reading the file…
        </p>
      )}
      {state.kind === 'error' && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {state.message}
        </p>
      )}
    </div>
  );
}
