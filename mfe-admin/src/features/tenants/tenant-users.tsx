import { memberRoleName } from '@console/shared/access';
import type { UserSummary } from '@console/shared/contracts';
import { ImpersonateButton } from '@console/shared/layout';
import { personName } from './tenant-format';

/**
 * A tenant's users, the owner first, each with their role as Manage Users names it (memberRoleName) and
 * Impersonate (spec section 1: super admins impersonate users).
 */
export function TenantUsers({ users, ownerId }: { users: readonly UserSummary[]; ownerId: string | undefined }) {
  const sorted = [...users].sort((a, b) => Number(b._id === ownerId) - Number(a._id === ownerId));
  return (
    <section aria-labelledby="tenant-users-title">
      <h3 id="tenant-users-title" className="font-semibold text-slate-900">
        Users
      </h3>
      {sorted.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">No users.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {sorted.map((user) => (
            <li key={user._id} className="flex items-center justify-between gap-3 py-2">
              <span className="min-w-0">
                <span className="block truncate text-sm text-slate-900">{personName(user)}</span>
                <span className="block truncate text-xs text-slate-500">
                  {user.email} · {memberRoleName(user)}
                </span>
              </span>
              <ImpersonateButton user={user} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
