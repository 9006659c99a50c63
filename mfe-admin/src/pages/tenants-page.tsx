import '../styles.css';
import { useQuery } from '@tanstack/react-query';
import { useConsole } from '@console/shared/session';
import { ImpersonateButton, PageHeader } from '@console/shared/layout';
import { fetchTenants } from '../features/tenants/api';

/** Tenants (admin_tenants): each community with its plan and people; admins impersonate from here. */
export default function TenantsPage() {
  const failed = useConsole((s) => s.error === true);
  const tenants = useQuery({
    queryKey: ['tenants', 1],
    queryFn: () => fetchTenants({ page: 1, perPage: 50, searchString: '' }),
  });
  return (
    <section>
      <PageHeader title="Tenants" description="Communities on the platform, their plans and their users." />
      {failed && (
        <p role="alert" className="mb-4 text-sm text-red-700">
          Impersonation failed. Please try again.
        </p>
      )}
      {tenants.isPending && (
        <p role="status" className="text-sm text-slate-500">
          Loading tenants…
        </p>
      )}
      {tenants.isError && (
        <p role="alert" className="text-sm text-red-700">
          {tenants.error.message}
        </p>
      )}
      {tenants.data && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Tenant
                </th>
                <th scope="col" className="px-4 py-3">
                  Plan
                </th>
                <th scope="col" className="px-4 py-3">
                  Users
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {tenants.data.records.map((t) => (
                <tr key={t._id}>
                  <td className="px-4 py-3 font-medium text-slate-900">{t.name}</td>
                  <td className="px-4 py-3 text-slate-700">{t.plan.name}</td>
                  <td className="px-4 py-3">
                    <ul className="space-y-1">
                      {(t.users ?? []).map((u) => (
                        <li key={u._id} className="flex items-center gap-3">
                          <span className="text-slate-700">{u.email}</span>
                          <span className="text-xs text-slate-500">{u.role.replace('_', ' ')}</span>
                          <ImpersonateButton user={u} />
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="px-4 py-3 text-sm text-slate-600">
            Showing {tenants.data.pagination.starting} to {tenants.data.pagination.ending} of{' '}
            {tenants.data.pagination.count} results
          </p>
        </div>
      )}
    </section>
  );
}
