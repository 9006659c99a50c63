/** A remote area or an applet that could not be loaded: the rest of the console keeps working. */
export function Unavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <section role="alert" className="m-8 rounded-lg border border-amber-300 bg-amber-50 p-6">
      <h1 className="text-lg font-semibold text-amber-900">This area is unavailable right now</h1>
      <p className="mt-2 text-sm text-amber-900">
        We could not load this part of the console. The rest of the console keeps working.
      </p>
      <button
        type="button"
        className="mt-4 rounded-md bg-amber-600 px-4 py-2 text-sm font-medium text-white hover:bg-amber-700"
        onClick={onRetry}
      >
        Retry
      </button>
    </section>
  );
}

/** While a remote page or an applet loads. */
export function PageLoading() {
  return (
    <div role="status" aria-live="polite" className="p-8 text-sm text-slate-500">
      Loading…
    </div>
  );
}
