import type { Permission, RouteMeta } from '@console/shared/access';

/**
 * The page registry: every page of spec section 2 declared once, with its layout, access meta, what
 * renders it (a shell page, or a page module exposed by a remote, loaded only after the guard allows
 * it) and where the menus show it. The router (router.tsx), the sidebars and the header menu
 * (menu.ts) and the remotes' exposes check (test/routes.test.ts) are all derived from this table.
 *
 * Choices where the spec is silent (docs/decisions.md): onboarding/sso takes manage_community like the rest
 * of its area; advertising/staking takes no permission but, being under /advertising, still needs
 * impersonation or super_admin per the advertising-path rule; the e-mail and advertising compose
 * routes take none, as the spec says.
 */
export type Layout = 'main' | 'bare';
export type RemoteName = 'mfe_engagement' | 'mfe_onboarding' | 'mfe_advertising' | 'mfe_account' | 'mfe_admin';
export type ShellPage =
  | 'overview'
  | 'login'
  | 'reset-request'
  | 'reset-password'
  | 'confirm-email'
  | 'checkout-success'
  | 'checkout'
  | 'invitation'
  | 'sign-in-link'
  | 'applet';

/** The tenant sidebar's groups (spec section 2), in their order; null is the unlabelled group. */
export const SIDEBAR_GROUPS = [null, 'Onboarding', 'Engagement', 'Advertising'] as const;
export type SidebarGroup = (typeof SIDEBAR_GROUPS)[number];

/**
 * Where a menu shows a page: the tenant sidebar (in a group), the super-admin sidebar or the header
 * menu, at `order` within that menu. Tenant sidebar and header entries follow the menu rule of spec
 * section 6 with the page's menu permission (menuPermission, else its route permission); the
 * super-admin sidebar lists its entries for every super admin, as the spec does.
 */
export type MenuPlacement =
  | { menu: 'sidebar'; group: SidebarGroup; order: number; label: string; onlyWhileImpersonating?: true }
  | { menu: 'admin-sidebar'; order: number; label: string }
  | { menu: 'header'; order: number; label: string };

export interface RouteDef extends RouteMeta {
  layout: Layout;
  page: { shell: ShellPage } | { remote: RemoteName; module: string };
  /** The menu entries that open this page; none for pages reached from other pages or by URL. */
  menus: readonly MenuPlacement[];
}

const shell = (page: ShellPage) => ({ shell: page });
const remote = (name: RemoteName, module: string) => ({ remote: name, module });
const eng = (module: string) => remote('mfe_engagement', module);

const sidebar = (group: SidebarGroup, order: number, label: string): MenuPlacement => ({
  menu: 'sidebar',
  group,
  order,
  label,
});
/** Spec section 2: Community Page and the advertising E-mails entry show only while impersonating. */
const sidebarWhileImpersonating = (group: SidebarGroup, order: number, label: string): MenuPlacement => ({
  menu: 'sidebar',
  group,
  order,
  label,
  onlyWhileImpersonating: true,
});
const adminSidebar = (order: number, label: string): MenuPlacement => ({ menu: 'admin-sidebar', order, label });
const header = (order: number, label: string): MenuPlacement => ({ menu: 'header', order, label });

interface Meta {
  permission?: Permission;
  allowWhileImpersonating?: boolean;
  allowTenant?: boolean;
  menuPermission?: Permission;
}

function route(
  name: string,
  path: string,
  layout: 'main' | 'default' | 'minimal' | 'bare',
  page: RouteDef['page'],
  meta: Meta = {},
  menus: readonly MenuPlacement[] = [],
): RouteDef {
  return { name, path, layout: layout === 'main' || layout === 'default' ? 'main' : 'bare', page, ...meta, menus };
}

export const ROUTES: readonly RouteDef[] = [
  route('overview', '/', 'main', shell('overview'), {}, [sidebar(null, 1, 'Overview'), adminSidebar(1, 'Dashboard')]),
  route('login', '/login', 'bare', shell('login')),
  route('reset request', '/reset', 'bare', shell('reset-request')),
  route('set new password', '/reset/:user_id/:reset_token', 'bare', shell('reset-password')),
  route('confirm-email', '/confirm-email', 'bare', shell('confirm-email')),
  route('checkout success', '/checkout/success', 'main', shell('checkout-success')),
  route('start checkout', '/checkout/:price_id', 'bare', shell('checkout')),
  // Ours (Manage Users): the link an invitation e-mail carries; the person joins and is signed in.
  route('invitation', '/invitation/:token', 'bare', shell('invitation')),
  // Ours (sign-in limits): the link e-mailed while an account's guessing limit is reached (docs/auth.md).
  route('sign-in link', '/sign-in/:user_id/:token', 'bare', shell('sign-in-link')),
  // Ours (Apps): an applet of the tenant's, loaded at run time. No permission: the server lists only the
  // applets the tenant's plan or settings include (GET /v1/apps); the sidebar's Apps group links here.
  route('apps/applet', '/apps/:slug', 'main', shell('applet')),

  route(
    'engagement/contacts',
    '/engagement/contacts',
    'default',
    eng('ContactsPage'),
    { permission: 'manage_contacts' },
    [sidebar('Engagement', 1, 'Contacts'), adminSidebar(2, 'Engagement')],
  ),
  route('engagement/contacts/import', '/engagement/contacts/import', 'default', eng('ContactsImportPage'), {
    permission: 'manage_contacts',
  }),
  route('engagement/lists', '/engagement/lists', 'default', eng('ListsPage'), { permission: 'manage_contacts' }, [
    sidebar('Engagement', 2, 'Lists'),
  ]),
  route('engagement/list', '/engagement/lists/:id', 'default', eng('ListPage'), { permission: 'manage_contacts' }),
  route(
    'engagement/segments',
    '/engagement/segments',
    'default',
    eng('SegmentsPage'),
    { permission: 'manage_contacts' },
    [sidebar('Engagement', 3, 'Segments')],
  ),
  route(
    'engagement/smart-contracts',
    '/engagement/smart-contracts',
    'default',
    eng('SmartContractsPage'),
    { permission: 'monitor_smart_contracts' },
    [sidebar('Engagement', 8, 'Smart Contracts')],
  ),
  // Ours: one watched contract (state, watched events, its feed), opened from Smart Contracts.
  route('engagement/smart-contracts/detail', '/engagement/smart-contracts/:id', 'default', eng('SmartContractPage'), {
    permission: 'monitor_smart_contracts',
  }),
  route(
    'engagement/custom-attributes',
    '/engagement/custom-attributes',
    'default',
    eng('CustomAttributesPage'),
    { permission: 'custom_attributes' },
    [sidebar('Engagement', 6, 'Custom Attributes')],
  ),
  route(
    'engagement/emails',
    '/engagement/emails',
    'default',
    eng('EmailsPage'),
    { permission: 'view_engagement_emails' },
    [sidebar('Engagement', 4, 'E-mails')],
  ),
  route('engagement/emails/compose', '/engagement/emails/compose/:id?', 'minimal', eng('EmailComposePage')),
  route('engagement/emails/log', '/engagement/emails/log/:id', 'default', eng('DeliveryLogPage')),
  route(
    'engagement/automations',
    '/engagement/automations',
    'default',
    eng('AutomationsPage'),
    { permission: 'automations' },
    [sidebar('Engagement', 7, 'Automations')],
  ),
  route('engagement/automations/log', '/engagement/automations/log/:id', 'default', eng('DeliveryLogPage'), {
    permission: 'automations',
  }),
  route('engagement/automations/edit', '/engagement/automations/:id', 'minimal', eng('AutomationEditPage'), {
    permission: 'automations',
  }),
  route('engagement/templates', '/engagement/templates', 'default', eng('TemplatesPage'), { permission: 'templates' }, [
    sidebar('Engagement', 5, 'Templates'),
    adminSidebar(6, 'Templates'),
  ]),
  route('engagement/template-designer', '/engagement/templates/:id', 'minimal', eng('TemplateDesignerPage'), {
    permission: 'templates',
  }),
  route(
    'engagement/transactional-emails',
    '/engagement/transactional-emails',
    'default',
    eng('TransactionalEmailsPage'),
    { permission: 'transactional_emails' },
    [sidebar('Engagement', 9, 'Transactional E-mails'), adminSidebar(4, 'Transactional')],
  ),
  route(
    'engagement/transactional-emails/detail',
    '/engagement/transactional-emails/:id',
    'default',
    eng('TransactionalTemplatePage'),
    { permission: 'transactional_emails' },
  ),

  route(
    'onboarding/widgets',
    '/onboarding/widgets',
    'main',
    remote('mfe_onboarding', 'WidgetsPage'),
    { permission: 'manage_community' },
    [sidebar('Onboarding', 2, 'Widgets')],
  ),
  route(
    'onboarding/community-page',
    '/onboarding/community-page',
    'main',
    remote('mfe_onboarding', 'CommunityPage'),
    { permission: 'manage_community' },
    [sidebarWhileImpersonating('Onboarding', 1, 'Community Page')],
  ),
  route('onboarding/sso', '/onboarding/sso', 'main', remote('mfe_onboarding', 'SsoPage'), {
    permission: 'manage_community',
  }),

  route(
    'advertising/emails',
    '/advertising/emails',
    'main',
    remote('mfe_advertising', 'EmailsPage'),
    { permission: 'view_advertising_emails' },
    [sidebarWhileImpersonating('Advertising', 1, 'E-mails'), adminSidebar(3, 'Advertising')],
  ),
  route(
    'advertising/emails/compose',
    '/advertising/emails/compose/:id?',
    'bare',
    remote('mfe_advertising', 'ComposePage'),
  ),
  route('advertising/emails/log', '/advertising/emails/log/:id', 'main', remote('mfe_advertising', 'LogPage'), {
    permission: 'send_advertising_emails',
    allowWhileImpersonating: true,
  }),
  route('advertising/staking', '/advertising/staking', 'main', remote('mfe_advertising', 'StakingPage')),

  route(
    'account/users',
    '/account/users',
    'main',
    remote('mfe_account', 'UsersPage'),
    { permission: 'team_features' },
    [header(5, 'Manage Users')],
  ),
  // Ours (Manage Users' Activity tab): the team's activity; the gateway shows it to owners only.
  route('account/users/activity', '/account/users/activity', 'main', remote('mfe_account', 'TeamActivityPage'), {
    permission: 'team_features',
  }),
  route('account/profile', '/account/profile', 'main', remote('mfe_account', 'ProfilePage'), {}, [
    header(1, 'Your Profile'),
  ]),
  route('account/change-password', '/account/change-password', 'main', remote('mfe_account', 'ChangePasswordPage')),
  // Spec section 2: the route row needs nothing, the header's entry company_settings; the page needs both.
  route(
    'account/general-settings',
    '/account/general-settings',
    'main',
    remote('mfe_account', 'GeneralSettingsPage'),
    { menuPermission: 'company_settings' },
    [header(2, 'General Settings')],
  ),
  route(
    'account/billing',
    '/account/billing',
    'main',
    remote('mfe_account', 'BillingPage'),
    { menuPermission: 'company_settings' },
    [header(3, 'Billing')],
  ),
  route(
    'account/api-access',
    '/account/api-access',
    'main',
    remote('mfe_account', 'ApiAccessPage'),
    { permission: 'api_access' },
    [header(6, 'API Access')],
  ),
  // Ours (API Access): the webhook endpoints, a view of its own beside the keys (its tabs), no menu entry.
  route('account/api-access/webhooks', '/account/api-access/webhooks', 'main', remote('mfe_account', 'WebhooksPage'), {
    permission: 'api_access',
  }),
  route(
    'account/custom-domains',
    '/account/custom-domains',
    'main',
    remote('mfe_account', 'CustomDomainsPage'),
    { permission: 'manage_domains' },
    [header(4, 'Custom Domains')],
  ),
  // Ours (Custom Domains): one domain's DNS records and verification, an address of its own so a reload,
  // back and forward keep it; the same page and permission as the list.
  route(
    'account/custom-domain',
    '/account/custom-domains/:domain_id',
    'main',
    remote('mfe_account', 'CustomDomainsPage'),
    { permission: 'manage_domains' },
  ),

  route('tenants', '/tenants', 'main', remote('mfe_admin', 'TenantsPage'), { permission: 'admin_tenants' }, [
    adminSidebar(5, 'Tenants'),
  ]),
  route('plans', '/plans', 'main', remote('mfe_admin', 'PlansPage'), { permission: 'admin_plans' }, [
    adminSidebar(7, 'Plans'),
  ]),
  route('applets', '/applets', 'main', remote('mfe_admin', 'AppletsPage'), { permission: 'admin_applets' }, [
    adminSidebar(8, 'Applets'),
  ]),
  route('applet', '/applets/:applet_id', 'main', remote('mfe_admin', 'AppletsPage'), { permission: 'admin_applets' }),
];

/** The permission a page's tenant-sidebar or header entry follows the menu rule with (spec section 6). */
export function menuPermissionOf(route: RouteDef): Permission | undefined {
  return route.menuPermission ?? route.permission;
}

/** Every module each remote must expose (the remotes' webpack configs are checked against this). */
export function exposedModules(name: RemoteName): string[] {
  return [...new Set(ROUTES.flatMap((r) => ('remote' in r.page && r.page.remote === name ? [r.page.module] : [])))];
}
