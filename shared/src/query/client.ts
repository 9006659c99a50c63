import { QueryClient } from '@tanstack/react-query';

/** One query cache for every bundle (TanStack Query is an MF singleton; so is this module). */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
});
