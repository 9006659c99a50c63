import { startImpersonation } from '@console/shared/session';
import { useConsole } from '@console/shared/session';
import type { UserSummary } from '@console/shared/contracts';

/**
 * Starts impersonating a user (the server decides who may; nobody may impersonate a super admin,
 * so no button is offered for one). Disabled while a session change is running.
 */
export function ImpersonateButton({ user }: { user: Pick<UserSummary, '_id' | 'email' | 'role'> }) {
  const busy = useConsole((s) => s.busy);
  if (user.role === 'super_admin') return null;
  return (
    <button
      type="button"
      disabled={busy}
      onClick={() => void startImpersonation(user._id)}
      className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60"
      aria-label={`Impersonate ${user.email}`}
    >
      Impersonate
    </button>
  );
}
