import type { ReactNode } from 'react';

/** A labelled list of an order's lines (plan, volume, period, price). */
export function SummaryList({ label, rows }: { label: string; rows: ReadonlyArray<[string, ReactNode]> }) {
  return (
    <dl aria-label={label} className="divide-y divide-slate-100 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="flex justify-between gap-4 py-2">
          <dt className="text-slate-600">{term}</dt>
          <dd className="text-right font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
