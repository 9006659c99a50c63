import { useConsole } from '@console/shared/session';

/** Spec section 8: an impersonation that fails sets the generic error state; say so above the grid. */
export function ImpersonationFailed() {
  const failed = useConsole((s) => s.error === true);
  if (!failed) return null;
  return (
    <p role="alert" className="mb-4 text-sm text-red-700">
      Impersonation failed. Please try again.
    </p>
  );
}
