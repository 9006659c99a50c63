import type { ReactNode } from 'react';

/** The title block every page starts with. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {description && <p className="mt-1 max-w-2xl text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex gap-2">{actions}</div>}
    </div>
  );
}

/**
 * A route whose screen is scheduled in an open issue: says so plainly (no fake data), so the route
 * table, guard and sidebar can be exercised end to end before the screen exists.
 */
export function PlannedPage({ title, description }: { title: string; description: string }) {
  return (
    <section>
      <PageHeader title={title} description={description} />
      <p
        className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600"
        data-testid="planned-page"
      >
        This screen is being built and will appear here in an upcoming release.
      </p>
    </section>
  );
}
