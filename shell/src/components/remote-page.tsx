import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { loadPage, resetRemote } from '../remotes';
import type { RemoteName } from '../routes';

interface Loaded {
  Page: ComponentType;
  Provider: ComponentType<{ children: ReactNode }>;
}

/** Pages already loaded, so going back to one renders at once. */
const loaded = new Map<string, Loaded>();

/**
 * The remote's page and the query cache's provider, loaded together: remote pages read data through
 * TanStack Query, which the shell's start-up (the sign-in screen) does not load.
 */
async function load(remote: RemoteName, module: string): Promise<Loaded> {
  const [page, query] = await Promise.all([loadPage(remote, module), import('@console/shared/query')]);
  return { Page: page.default, Provider: query.QueryProvider };
}

/** Renders a remote's page after the guard allowed the route; shows "unavailable, retry" on failure. */
export function RemotePage({ remote, module }: { remote: RemoteName; module: string }) {
  const key = `${remote}/${module}`;
  const [state, setState] = useState<{ key: string; result: Loaded | 'loading' | 'failed' }>(() => ({
    key,
    result: loaded.get(key) ?? 'loading',
  }));
  const [attempt, setAttempt] = useState(0);
  const result = state.key === key ? state.result : (loaded.get(key) ?? 'loading');

  useEffect(() => {
    if (loaded.has(key)) return;
    let live = true;
    load(remote, module).then(
      (value) => {
        loaded.set(key, value);
        if (live) setState({ key, result: value });
      },
      () => {
        if (live) setState({ key, result: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [key, remote, module, attempt]);

  if (typeof result === 'object') {
    const { Page, Provider } = result;
    return (
      <Provider>
        <Page />
      </Provider>
    );
  }
  if (result === 'loading') {
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
          setState({ key, result: 'loading' });
          setAttempt((n) => n + 1);
        }}
      >
        Retry
      </button>
    </section>
  );
}
