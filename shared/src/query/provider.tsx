import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './client';

/**
 * The one query cache, provided where data is read: the main layout (and so every remote page), the
 * plan dialogs and the data-reading bare pages. Not at the root, so the sign-in screen does not load
 * TanStack Query; every provider hands out the same client, so they share one cache.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
