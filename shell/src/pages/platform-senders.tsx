import type { PlatformDashboard } from '@console/shared/contracts';
import { formatCount } from '@console/shared/format';

type Sender = PlatformDashboard['senders'][number];

/** Flagged senders first (the worst hurt the platform's reputation), then by bounce plus complaint rate. */
export function sendersInOrder(senders: readonly Sender[]): Sender[] {
  return [...senders].sort(
    (a, b) =>
      Number(b.flagged) - Number(a.flagged) ||
      b.complaint_rate + b.bounce_rate - (a.complaint_rate + a.bounce_rate) ||
      a.tenant_name.localeCompare(b.tenant_name),
  );
}

/**
 * Each sender's bounce and complaint rates over the last 30 days. A flagged sender is marked by a word
 * and an icon in its own column, not by colour alone, and its row reads so to screen readers.
 */
export function PlatformSenders({
  senders,
  formatRate,
}: {
  senders: readonly Sender[];
  formatRate: (rate: number) => string;
}) {
  if (senders.length === 0)
    return (
      <>
        <h2 className="font-semibold text-slate-900">Senders</h2>
        <p className="mt-1 text-sm text-slate-600">No tenant has sent e-mail in the last 30 days.</p>
      </>
    );
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm">
        <caption className="mb-2 text-left">
          <span className="block font-semibold text-slate-900">Senders, last 30 days</span>
          <span className="block text-xs text-slate-600">
            Flagged: bounce or complaint rate above what mailbox providers act on.
          </span>
        </caption>
        <thead className="text-left text-xs font-semibold uppercase text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-4">
              Tenant
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              Sent
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              Bounce rate
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              Complaint rate
            </th>
            <th scope="col" className="py-2">
              Status
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {sendersInOrder(senders).map((sender) => (
            <tr
              key={sender.tenant_id}
              data-testid={`sender-${sender.tenant_id}`}
              className={sender.flagged ? 'bg-red-50' : undefined}
            >
              <th scope="row" className="py-2 pr-4 text-left font-medium text-slate-900">
                {sender.tenant_name}
              </th>
              <td className="py-2 pr-4 text-right tabular-nums">{formatCount(sender.sent)}</td>
              <td className="py-2 pr-4 text-right tabular-nums">{formatRate(sender.bounce_rate)}</td>
              <td className="py-2 pr-4 text-right tabular-nums">{formatRate(sender.complaint_rate)}</td>
              <td className="py-2">
                {sender.flagged ? (
                  <span className="inline-flex items-center gap-1 rounded bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
                    <span aria-hidden="true">⚠</span> Flagged
                  </span>
                ) : (
                  <span className="text-xs text-slate-600">OK</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
