import { useEffect, useRef, useState } from 'react';
import { Link } from '@console/shared/router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { Button, ProgressBar, Spinner, notify } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import { importProgress, isImportFinished, type ImportJob } from '@console/shared/contracts';
import { IMPORTS_KEY, cancelImport, downloadFailures, fetchImport, importJobKey } from './api';
import { messageOf } from '@console/shared/api';
import { formatCount, formatDateTime } from '@console/shared/format';
import { STATUS_TEXT } from './import-targets';

/** How often a running job is polled (ms). */
export const IMPORT_POLL_MS = 1000;

const FIGURES = [
  ['rows_done', 'Rows done'],
  ['created', 'Created'],
  ['updated', 'Updated'],
  ['skipped', 'Skipped'],
  ['failed', 'Failed'],
] as const;

/** One import job: progress while it runs (polled every second), figures and follow-ups when it ends. */
export function ImportJobView({ jobId, onAnother }: { jobId: string; onAnother: () => void }) {
  const queryClient = useQueryClient();
  const job = useQuery({
    queryKey: importJobKey(jobId),
    queryFn: () => fetchImport(jobId),
    refetchInterval: (query) => {
      const data = query.state.data;
      // A job left 'uploaded' was never started (the page was left between upload and start): nothing moves.
      return data && (isImportFinished(data.status) || data.status === 'uploaded') ? false : IMPORT_POLL_MS;
    },
    staleTime: 0,
  });
  const finished = job.data ? isImportFinished(job.data.status) : false;

  // A job seen running and now finished changed contacts, lists and the recent imports.
  const sawRunning = useRef(false);
  useEffect(() => {
    if (!job.data) return;
    if (!finished) {
      sawRunning.current = true;
      return;
    }
    if (!sawRunning.current) return;
    sawRunning.current = false;
    void queryClient.invalidateQueries({ queryKey: [...IMPORTS_KEY, 'list'] });
    void queryClient.invalidateQueries({ queryKey: ['contacts'] });
    void queryClient.invalidateQueries({ queryKey: ['lists'] });
  }, [finished, job.data, queryClient]);

  if (job.isPending) {
    return (
      <div className="flex items-center gap-2 rounded-panel border border-slate-200 bg-white p-6 text-sm text-slate-600">
        <Spinner className="h-4 w-4" decorative />
        Loading the import…
      </div>
    );
  }
  if (job.isError) {
    return (
      <div className="space-y-3 rounded-panel border border-slate-200 bg-white p-6">
        <p role="alert" className="text-sm text-red-700">
          {job.error instanceof ApiError && job.error.status === 404 ? 'This import was not found.' : job.error.message}
        </p>
        <Button variant="secondary" onClick={onAnother}>
          Import another file
        </Button>
      </div>
    );
  }
  return <JobDetails job={job.data} finished={finished} onAnother={onAnother} />;
}

function JobDetails({ job, finished, onAnother }: { job: ImportJob; finished: boolean; onAnother: () => void }) {
  const queryClient = useQueryClient();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const percent = importProgress(job);
  const download = useMutation({
    mutationFn: () => downloadFailures(job._id),
    onError: (error) => notify.error(messageOf(error, 'The failed rows could not be downloaded.')),
  });
  const contactsLink = job.list_id
    ? `/engagement/contacts?listId=${encodeURIComponent(job.list_id)}`
    : '/engagement/contacts';

  const cancel = async () => {
    const next = await cancelImport(job._id);
    queryClient.setQueryData(importJobKey(job._id), next);
    setConfirmCancel(false);
  };

  return (
    <div className="space-y-5 rounded-panel border border-slate-200 bg-white p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">{job.file_name}</h2>
          <p className="text-xs text-slate-500">Uploaded {formatDateTime(job.created_at)}</p>
        </div>
        <p role="status" className="text-sm font-medium text-slate-800" data-testid="import-status">
          {STATUS_TEXT[job.status]}
        </p>
      </div>
      <ProgressBar
        label="Import progress"
        value={percent}
        valueText={`${percent}% of the file read`}
        tone={job.status === 'failed' ? 'danger' : job.status === 'completed' ? 'success' : 'brand'}
      />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="import-figures">
        {FIGURES.map(([field, label]) => (
          <div key={field} className="rounded-control bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd
              className={`text-lg font-semibold tabular-nums ${
                field === 'failed' && job.failed > 0 ? 'text-red-700' : 'text-slate-900'
              }`}
            >
              {formatCount(job[field])}
            </dd>
          </div>
        ))}
      </dl>
      {job.status === 'failed' && job.error && (
        <p role="alert" className="rounded-control bg-red-50 p-3 text-sm text-red-700">
          {job.error}
        </p>
      )}
      {!finished && job.status !== 'uploaded' && (
        <p className="text-xs text-slate-500">
          You can leave this page: the import goes on, and this page shows it again.
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        {!finished && (
          <Button variant="secondary" onClick={() => setConfirmCancel(true)}>
            Cancel import
          </Button>
        )}
        {finished && job.failed > 0 && (
          <Button variant="secondary" busy={download.isPending} onClick={() => download.mutate()}>
            Download failed rows
          </Button>
        )}
        {finished && (
          <Link
            to={contactsLink}
            className="inline-flex items-center rounded-control bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            View contacts
          </Link>
        )}
        {(finished || job.status === 'uploaded') && (
          <Button variant="secondary" onClick={onAnother}>
            Import another file
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={confirmCancel}
        onClose={() => setConfirmCancel(false)}
        title="Cancel this import?"
        confirmVariant="danger"
        cancelText="Keep importing"
        onConfirm={cancel}
        onError={(error) => notify.error(messageOf(error, 'The import could not be cancelled.'))}
      >
        <p className="text-slate-700">Rows imported so far stay imported; the rest of the file is not read.</p>
      </ConfirmDialog>
    </div>
  );
}
