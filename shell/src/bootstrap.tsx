import { createRoot } from 'react-dom/client';
import { StrictMode } from 'react';
import { RouterProvider } from '@console/shared/router';
import { DEFAULT_CONFIG, setRuntimeConfig, type RuntimeConfig } from '@console/shared/config';
import { createRouter } from './router';
import { followSessionRefreshes } from './session-refresh';

/** Read the runtime config (URLs bound per environment), then render. */
export async function boot(): Promise<void> {
  const config = await fetch('/config/remotes.json', { cache: 'no-store' })
    .then((r) => (r.ok ? (r.json() as Promise<RuntimeConfig>) : DEFAULT_CONFIG))
    .catch(() => DEFAULT_CONFIG);
  setRuntimeConfig(config);
  const container = document.getElementById('root');
  if (!container) throw new Error('#root missing');
  const router = createRouter();
  followSessionRefreshes(router);
  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}
