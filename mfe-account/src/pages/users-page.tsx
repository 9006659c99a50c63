import '../styles.css';
import { useQuery } from '@tanstack/react-query';
import { useConsole } from '@console/shared/session';
import { ImpersonateButton, PageHeader } from '@console/shared/layout';
import { fetchUsers } from '../features/users/api';

/** Manage Users (team_features): the community's team; tenant admins can impersonate a member. */
export default function UsersPage() {
  const me = useConsole((s) => s.user);
  const users = useQuery({ queryKey: ['users'], queryFn: fetchUsers });
  const canImpersonate = me?.role === 'tenant_admin' && !me.is_impersonating;
  return (
    <section>
      <PageHeader title="Manage Users" description="The people who work on your community in this console." />
      {users.isPending && (
        <p role="status" className="text-sm text-slate-500">
          Loading users…
        </p>
      )}
      {users.isError && (
        <p role="alert" className="text-sm text-red-700">
          {users.error.message}
        </p>
      )}
      {users.data && (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {users.data.records.map((u) => (
            <li key={u._id} className="flex items-center justify-between gap-4 px-4 py-3 text-sm">
              <span>
                <span className="font-medium text-slate-900">{`${u.first_name} ${u.last_name}`.trim() || u.email}</span>
                <span className="ml-2 text-slate-500">{u.email}</span>
              </span>
              {canImpersonate && u._id !== me._id && <ImpersonateButton user={u} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
