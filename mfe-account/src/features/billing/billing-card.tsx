import { useId, type ReactNode } from 'react';

/** One block of the billing page: a titled region, with optional actions in its footer. */
export function BillingCard({
  title,
  children,
  actions,
  className,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={['flex flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm', className]
        .filter(Boolean)
        .join(' ')}
    >
      <h2 id={headingId} className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
        {title}
      </h2>
      <div className="mt-3 flex-1 text-sm text-slate-700">{children}</div>
      {actions && <div className="mt-4 flex flex-wrap gap-2">{actions}</div>}
    </section>
  );
}
