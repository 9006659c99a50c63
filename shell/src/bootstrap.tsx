import { createRoot } from 'react-dom/client';
import { StrictMode } from 'react';
import { RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_CONFIG, queryClient, setRuntimeConfig, type RuntimeConfig } from '@console/shared';
import { createRouter } from './router';

/** Read the runtime config (URLs bound per environment), then render. */
export async function boot(): Promise<void> {
  const config = await fetch('/config/remotes.json', { cache: 'no-store' })
    .then((r) => (r.ok ? (r.json() as Promise<RuntimeConfig>) : DEFAULT_CONFIG))
    .catch(() => DEFAULT_CONFIG);
  setRuntimeConfig(config);
  const container = document.getElementById('root');
  if (!container) throw new Error('#root missing');
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={createRouter()} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
