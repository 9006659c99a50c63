import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { Spinner } from '@console/shared/ui';
import { DataGrid, type DataGridColumn } from '@console/shared/lists';
import type { Contact, SegmentField, SegmentGroup } from '@console/shared/contracts';
import { SEGMENTS_KEY, previewSegment } from './api';
import { enumLabel } from './builder-options';
import { isRuleComplete } from './rule-complete';
import { matchCountText } from './rule-json';
import { useDebouncedValue } from './use-debounced-value';

/** The live count waits this long after the last change to the rule (ms). */
export const PREVIEW_DEBOUNCE_MS = 400;
export const PREVIEW_LIMIT = 10;

/** Count and first matches of the rule being edited, asked for once it has settled and every rule is filled in. */
export function useSegmentPreview(rule: SegmentGroup, fields: ReadonlyMap<string, SegmentField>) {
  const settled = useDebouncedValue(rule, PREVIEW_DEBOUNCE_MS);
  const complete = isRuleComplete(settled, fields);
  const query = useQuery({
    queryKey: [...SEGMENTS_KEY, 'preview', settled],
    queryFn: () => previewSegment(settled, PREVIEW_LIMIT),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
    enabled: complete,
  });
  return { query, complete };
}

/** The gateway's messages about the rule (400 errors.rule), or null for any other outcome. */
export function ruleErrorsOf(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const messages = error.body.errors?.rule;
  return messages && messages.length > 0 ? messages : null;
}

const COLUMNS: DataGridColumn<Contact>[] = [
  { key: 'email', header: 'E-mail', render: (c) => c.email ?? '' },
  {
    key: 'wallet',
    header: 'Wallet',
    render: (c) => (c.wallet ? <span className="font-mono text-xs">{c.wallet}</span> : ''),
  },
  { key: 'name', header: 'Name', render: (c) => `${c.first_name} ${c.last_name}`.trim() },
  { key: 'status', header: 'Status', render: (c) => enumLabel(c.status) },
];

/** 'N contacts match' (announced politely) and the first matches; rule errors replace the count. */
export function SegmentPreviewPanel({
  preview: { query, complete },
  ruleErrors,
}: {
  preview: ReturnType<typeof useSegmentPreview>;
  /** Rule errors from saving, shown when the preview has none of its own. */
  ruleErrors: string[] | null;
}) {
  const previewProblems = complete ? ruleErrorsOf(query.error) : null;
  const problems = previewProblems ?? ruleErrors;
  const otherError = complete && query.isError && previewProblems === null ? query.error.message : null;
  const data = complete && !problems && !otherError ? query.data : undefined;
  const countLine =
    problems || otherError
      ? ''
      : !complete
        ? 'Fill in every rule to see how many contacts match.'
        : data
          ? matchCountText(data.count)
          : 'Counting contacts…';
  return (
    <div className="space-y-3">
      {problems ? (
        <div role="alert" className="rounded-control bg-red-50 p-3 text-sm text-red-700">
          <ul className="list-inside list-disc space-y-0.5">
            {problems.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="flex items-center gap-2">
        <p
          aria-live="polite"
          className={complete ? 'text-base font-semibold text-slate-900' : 'text-sm text-slate-500'}
          data-testid="segment-count"
        >
          {countLine}
        </p>
        {complete && query.isFetching && <Spinner className="h-4 w-4" label="Counting contacts" />}
      </div>
      {otherError && (
        <p role="alert" className="text-sm text-red-700">
          {otherError}
        </p>
      )}
      {data && (
        <DataGrid<Contact>
          label="First matching contacts"
          columns={COLUMNS}
          rows={data.records}
          rowKey={(c) => c._id}
          empty="No contacts match."
          loading={query.isFetching}
        />
      )}
    </div>
  );
}
