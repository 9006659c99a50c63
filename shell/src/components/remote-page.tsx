import { useQuery } from '@tanstack/react-query';
import { loadPage, resetRemote } from '../remotes';
import type { RemoteName } from '../routes';

/** Renders a remote's page after the guard allowed the route; shows "unavailable, retry" on failure. */
export function RemotePage({ remote, module }: { remote: RemoteName; module: string }) {
  const page = useQuery({
    queryKey: ['remote-page', remote, module],
    queryFn: () => loadPage(remote, module),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

  if (page.data) return <page.data.default />;
  if (page.isPending || page.isFetching) {
    return (
      <div role="status" aria-live="polite" className="p-8 text-sm text-slate-500">
        Loading…
      </div>
    );
  }
  return (
    <section role="alert" className="m-8 rounded-lg border border-amber-300 bg-amber-50 p-6">
      <h1 className="text-lg font-semibold text-amber-900">This area is unavailable right now</h1>
      <p className="mt-2 text-sm text-amber-900">
        We could not load this part of the console. The rest of the console keeps working.
      </p>
      <button
        type="button"
        className="mt-4 rounded-md bg-amber-600 px-4 py-2 text-sm font-medium text-white hover:bg-amber-700"
        onClick={() => {
          resetRemote(remote);
          void page.refetch();
        }}
      >
        Retry
      </button>
    </section>
  );
}
