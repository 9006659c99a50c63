/**
 * A module loaded on first use (`once(() => import('heavy'))`): the first call starts the load and every
 * later call shares it, so the gateway starts without libraries only some requests need. A load that
 * failed is tried again on the next call.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}
