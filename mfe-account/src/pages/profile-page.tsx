import '../styles.css';
import { Link } from '@console/shared/router';
import { useConsole } from '@console/shared/session';
import { Button, notify } from '@console/shared/ui';
import { PageHeader } from '@console/shared/layout';

/** Your Profile: who is signed in (editing arrives with the account issue). */
export default function ProfilePage() {
  const user = useConsole((s) => s.user);
  if (!user) return null;
  const rows: [string, string][] = [
    ['Name', `${user.first_name} ${user.last_name}`.trim() || '—'],
    ['E-mail', user.email],
    ['Role', user.role.replace('_', ' ')],
    ['Community', user.tenant_name ?? '—'],
  ];
  return (
    <section>
      <PageHeader title="Your Profile" />
      <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="profile">
        {rows.map(([k, v]) => (
          <div key={k} className="grid grid-cols-3 gap-4 px-4 py-3 text-sm">
            <dt className="font-medium text-slate-500">{k}</dt>
            <dd className="col-span-2 text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-4 flex items-center gap-4">
        <Button
          variant="secondary"
          size="sm"
          onClick={() =>
            navigator.clipboard.writeText(user.email).then(
              () => notify.success('E-mail address copied.'),
              () => notify.error('Could not copy: your browser blocked the clipboard.'),
            )
          }
        >
          Copy e-mail address
        </Button>
        <Link className="text-sm text-brand-700 underline" to="/account/change-password">
          Change password
        </Link>
      </div>
    </section>
  );
}
