import { Link } from '@console/shared/router';
import { useQuery } from '@tanstack/react-query';
import { featureForPermission, menuItemState, type Permission } from '@console/shared/access';
import { Tenant } from '@console/shared/contracts';
import { api } from '@console/shared/api';
import { consoleStore, useConsole, type ConsoleUser } from '@console/shared/session';
import { OverviewFigures } from './overview-figures';
import { PlatformDashboard } from './platform-dashboard';

interface Area {
  title: string;
  text: string;
  to: string;
  permission?: Permission;
}

/** What a community can do here, each with its link, locked where the plan lacks it. */
export const TENANT_AREAS: Area[] = [
  {
    title: 'Contacts',
    text: 'Your audience: wallets and e-mail addresses, with their lists.',
    to: '/engagement/contacts',
    permission: 'manage_contacts',
  },
  {
    title: 'Segments',
    text: 'Target people by what they did and what they hold.',
    to: '/engagement/segments',
    permission: 'manage_contacts',
  },
  {
    title: 'E-mails',
    text: 'Write and send campaigns, and read how they did.',
    to: '/engagement/emails',
    permission: 'view_engagement_emails',
  },
  {
    title: 'Templates',
    text: 'Design reusable e-mail templates.',
    to: '/engagement/templates',
    permission: 'templates',
  },
  {
    title: 'Automations',
    text: 'Send the right e-mail when something happens.',
    to: '/engagement/automations',
    permission: 'automations',
  },
  {
    title: 'Smart Contracts',
    text: 'Watch on-chain events and react to them.',
    to: '/engagement/smart-contracts',
    permission: 'monitor_smart_contracts',
  },
  {
    title: 'Transactional E-mails',
    text: 'Send receipts and notices through the API.',
    to: '/engagement/transactional-emails',
    permission: 'transactional_emails',
  },
  {
    title: 'Widgets',
    text: 'Sign-up forms for your website.',
    to: '/onboarding/widgets',
    permission: 'manage_community',
  },
  {
    title: 'Custom Domains',
    text: 'Send from your own domain.',
    to: '/account/custom-domains',
    permission: 'manage_domains',
  },
  { title: 'API Access', text: 'Keys for your own integrations.', to: '/account/api-access', permission: 'api_access' },
];

export const ADMIN_AREAS: Area[] = [
  {
    title: 'Tenants',
    text: 'Communities on the platform, their plans and users.',
    to: '/tenants',
    permission: 'admin_tenants',
  },
  { title: 'Plans', text: 'The plan catalogue and its prices.', to: '/plans', permission: 'admin_plans' },
  { title: 'Applets', text: 'Applets available to communities.', to: '/applets', permission: 'admin_applets' },
];

function AreaCard({ area, user }: { area: Area; user: ConsoleUser }) {
  const state = menuItemState(area.permission, user);
  if (state === 'hidden') return null;
  const body = (
    <>
      <h3 className="flex items-center justify-between font-semibold text-slate-900">
        {area.title}
        {state === 'locked' && (
          <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">Upgrade</span>
        )}
      </h3>
      <p className="mt-1 text-sm text-slate-600">{area.text}</p>
    </>
  );
  const className =
    'block h-full rounded-lg border border-slate-200 bg-white p-4 text-left shadow-sm hover:border-brand-400';
  return (
    <li>
      {state === 'locked' ? (
        <button
          type="button"
          className={`${className} w-full`}
          onClick={() =>
            consoleStore.getState().openUpgrade(area.permission ? featureForPermission(area.permission) : null)
          }
        >
          {body}
        </button>
      ) : (
        <Link className={className} to={area.to}>
          {body}
        </Link>
      )}
    </li>
  );
}

/**
 * The landing page: who you are, which community and plan, and what you can open from here; for a super
 * admin, the platform dashboard.
 */
export function OverviewPage() {
  const user = useConsole((s) => s.user);
  const tenant = useQuery({
    queryKey: ['tenant', 'current', user?.tenant_id],
    queryFn: () => api.get('/v1/tenants/current', Tenant),
    // A super admin's landing page is the platform dashboard: no tenant figures to read.
    enabled: Boolean(user?.tenant_id) && user?.role !== 'super_admin',
  });
  if (!user) return null;
  // The super admin's Dashboard is the platform's (their sidebar opens every area, so no tiles); a global
  // admin, who has no sidebar, keeps the tiles of the platform areas.
  const superAdmin = user.role === 'super_admin';
  if (superAdmin) {
    return (
      <section aria-labelledby="overview-title">
        <h1 id="overview-title" className="text-2xl font-semibold text-slate-900">
          Welcome{user.first_name ? `, ${user.first_name}` : ''}
        </h1>
        <p className="mt-1 text-slate-600">The platform at a glance.</p>
        <PlatformDashboard />
      </section>
    );
  }
  const areas = user.tenant_id ? TENANT_AREAS : [];
  const adminAreas = ADMIN_AREAS.filter((a) => a.permission && user.permissions.includes(a.permission));
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title" className="text-2xl font-semibold text-slate-900">
        Welcome{user.first_name ? `, ${user.first_name}` : ''}
      </h1>
      {user.tenant_id && (
        <p className="mt-1 text-slate-600">
          <span data-testid="overview-tenant">{user.tenant_name}</span>
          {tenant.data && (
            <>
              {' · '}
              <span data-testid="overview-plan">{tenant.data.plan.name}</span> plan
            </>
          )}
          {user.enableExperimentalFeatures && (
            <span className="ml-2 rounded bg-purple-100 px-2 py-0.5 text-xs font-medium text-purple-800">
              Experimental features on
            </span>
          )}
        </p>
      )}
      {user.tenant_id && <OverviewFigures user={user} />}
      {adminAreas.length > 0 && (
        <>
          <h2 className="mt-8 text-lg font-semibold">Platform</h2>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {adminAreas.map((a) => (
              <AreaCard key={a.to} area={a} user={user} />
            ))}
          </ul>
        </>
      )}
      {areas.length > 0 && (
        <>
          <h2 className="mt-8 text-lg font-semibold">Your community</h2>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {areas.map((a) => (
              <AreaCard key={a.to} area={a} user={user} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
