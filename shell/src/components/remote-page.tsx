import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { loadPage, resetRemote } from '../remotes';
import type { RemoteName } from '../routes';
import { PageLoading, Unavailable } from './unavailable';

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
  if (result === 'loading') return <PageLoading />;
  return (
    <Unavailable
      onRetry={() => {
        resetRemote(remote);
        setState({ key, result: 'loading' });
        setAttempt((n) => n + 1);
      }}
    />
  );
}
