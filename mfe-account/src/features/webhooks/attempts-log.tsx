import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@console/shared/format';
import { ListPagination } from '@console/shared/lists';
import { Spinner } from '@console/shared/ui';
import { attemptsKey, fetchAttempts } from './api';
import { EVENT_LABELS, STATE_LABELS } from './labels';
import type { WebhookEventType } from '@console/shared/contracts';

const SIZES = [10, 25, 50, 100] as const;

function typeLabel(type: string): string {
  return type in EVENT_LABELS ? EVENT_LABELS[type as WebhookEventType].label : 'Test event';
}

/** The endpoint's attempts, newest first: event, attempt number, status code, response time, next retry. */
export function AttemptsLog({ endpointId }: { endpointId: string }) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(10);
  const attempts = useQuery({
    queryKey: attemptsKey(endpointId, page, perPage),
    queryFn: () => fetchAttempts(endpointId, page, perPage),
    placeholderData: keepPreviousData,
  });
  const records = attempts.data?.records ?? [];

  return (
    <section aria-labelledby={`attempts-${endpointId}`} className="mt-6">
      <h3 id={`attempts-${endpointId}`} className="mb-2 text-base font-semibold text-slate-900">
        Attempts
      </h3>
      {attempts.isPending && <Spinner label="Loading attempts" />}
      {attempts.error && (
        <p role="alert" className="text-sm text-red-700">
          {attempts.error.message}
        </p>
      )}
      {attempts.data &&
        (records.length === 0 ? (
          <p className="text-sm text-slate-600">No attempts yet. Send a test event to try the endpoint.</p>
        ) : (
          <>
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm" aria-label="Delivery attempts">
                <thead className="border-b border-slate-200 text-slate-600">
                  <tr>
                    {['Time', 'Event', 'Attempt', 'Status code', 'Response time', 'Result', 'Next retry'].map((h) => (
                      <th key={h} scope="col" className="py-2 pr-4 font-medium">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {records.map((a) => (
                    <tr key={a._id} className="border-b border-slate-100 align-top">
                      <td className="py-2 pr-4 whitespace-nowrap text-slate-700">{formatDateTime(a.at)}</td>
                      <td className="py-2 pr-4">
                        <span className="font-medium text-slate-900">{typeLabel(a.type)}</span>
                        <span className="block font-mono text-xs text-slate-500">{a.event_id}</span>
                      </td>
                      <td className="py-2 pr-4 text-slate-700">{a.attempt}</td>
                      <td className="py-2 pr-4 text-slate-700">{a.status_code ?? '—'}</td>
                      <td className="py-2 pr-4 text-slate-700">
                        {a.response_ms === null ? '—' : `${a.response_ms} ms`}
                      </td>
                      <td className="py-2 pr-4">
                        <span className={a.state === 'delivered' ? 'text-emerald-800' : 'text-slate-800'}>
                          {STATE_LABELS[a.state]}
                        </span>
                        {a.error && <span className="block text-xs text-red-700">{a.error}</span>}
                      </td>
                      <td className="py-2 pr-4 whitespace-nowrap text-slate-700">
                        {a.next_attempt_at ? formatDateTime(a.next_attempt_at) : '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ListPagination
              pagination={attempts.data.pagination}
              onPage={setPage}
              perPage={perPage}
              pageSizes={SIZES}
              onPerPage={(size) => {
                setPerPage(size);
                setPage(1);
              }}
            />
          </>
        ))}
    </section>
  );
}
