import type { Permission, RouteMeta } from '@console/shared/access';

/**
 * The route table of spec section 2, once. Layout, permission meta, and what renders each route:
 * a shell page, or a page module exposed by a remote (loaded only after the guard allows it).
 *
 * Choices where the spec is silent (see README): onboarding/sso takes manage_community like the rest
 * of its area; advertising/staking takes no permission but, being under /advertising, still needs
 * impersonation or super_admin per the advertising-path rule; the e-mail and advertising compose
 * routes take none, as the spec says.
 */
export type Layout = 'main' | 'bare';
export type RemoteName = 'mfe_engagement' | 'mfe_onboarding' | 'mfe_advertising' | 'mfe_account' | 'mfe_admin';
export type ShellPage =
  'overview' | 'login' | 'reset-request' | 'reset-password' | 'confirm-email' | 'checkout-success' | 'checkout';

export interface RouteDef extends RouteMeta {
  layout: Layout;
  page: { shell: ShellPage } | { remote: RemoteName; module: string };
}

const shell = (page: ShellPage) => ({ shell: page });
const remote = (name: RemoteName, module: string) => ({ remote: name, module });
const eng = (module: string) => remote('mfe_engagement', module);

function route(
  name: string,
  path: string,
  layout: 'main' | 'default' | 'minimal' | 'bare',
  page: RouteDef['page'],
  meta: { permission?: Permission; allowWhileImpersonating?: boolean; allowTenant?: boolean } = {},
): RouteDef {
  return { name, path, layout: layout === 'main' || layout === 'default' ? 'main' : 'bare', page, ...meta };
}

export const ROUTES: readonly RouteDef[] = [
  route('overview', '/', 'main', shell('overview')),
  route('login', '/login', 'bare', shell('login')),
  route('reset request', '/reset', 'bare', shell('reset-request')),
  route('set new password', '/reset/:user_id/:reset_token', 'bare', shell('reset-password')),
  route('confirm-email', '/confirm-email', 'bare', shell('confirm-email')),
  route('checkout success', '/checkout/success', 'main', shell('checkout-success')),
  route('start checkout', '/checkout/:price_id', 'bare', shell('checkout')),

  route('engagement/contacts', '/engagement/contacts', 'default', eng('ContactsPage'), {
    permission: 'manage_contacts',
  }),
  route('engagement/contacts/import', '/engagement/contacts/import', 'default', eng('ContactsImportPage'), {
    permission: 'manage_contacts',
  }),
  route('engagement/lists', '/engagement/lists', 'default', eng('ListsPage'), { permission: 'manage_contacts' }),
  route('engagement/list', '/engagement/lists/:id', 'default', eng('ListPage'), { permission: 'manage_contacts' }),
  route('engagement/segments', '/engagement/segments', 'default', eng('SegmentsPage'), {
    permission: 'manage_contacts',
  }),
  route('engagement/smart-contracts', '/engagement/smart-contracts', 'default', eng('SmartContractsPage'), {
    permission: 'monitor_smart_contracts',
  }),
  route('engagement/custom-attributes', '/engagement/custom-attributes', 'default', eng('CustomAttributesPage'), {
    permission: 'custom_attributes',
  }),
  route('engagement/emails', '/engagement/emails', 'default', eng('EmailsPage'), {
    permission: 'view_engagement_emails',
  }),
  route('engagement/emails/compose', '/engagement/emails/compose/:id?', 'minimal', eng('EmailComposePage')),
  route('engagement/emails/log', '/engagement/emails/log/:id', 'default', eng('DeliveryLogPage')),
  route('engagement/automations', '/engagement/automations', 'default', eng('AutomationsPage'), {
    permission: 'automations',
  }),
  route('engagement/automations/log', '/engagement/automations/log/:id', 'default', eng('DeliveryLogPage'), {
    permission: 'automations',
  }),
  route('engagement/automations/edit', '/engagement/automations/:id', 'minimal', eng('AutomationEditPage'), {
    permission: 'automations',
  }),
  route('engagement/templates', '/engagement/templates', 'default', eng('TemplatesPage'), { permission: 'templates' }),
  route('engagement/template-designer', '/engagement/templates/:id', 'minimal', eng('TemplateDesignerPage'), {
    permission: 'templates',
  }),
  route(
    'engagement/transactional-emails',
    '/engagement/transactional-emails',
    'default',
    eng('TransactionalEmailsPage'),
    { permission: 'transactional_emails' },
  ),

  route('onboarding/widgets', '/onboarding/widgets', 'main', remote('mfe_onboarding', 'WidgetsPage'), {
    permission: 'manage_community',
  }),
  route('onboarding/community-page', '/onboarding/community-page', 'main', remote('mfe_onboarding', 'CommunityPage'), {
    permission: 'manage_community',
  }),
  route('onboarding/sso', '/onboarding/sso', 'main', remote('mfe_onboarding', 'SsoPage'), {
    permission: 'manage_community',
  }),

  route('advertising/emails', '/advertising/emails', 'main', remote('mfe_advertising', 'EmailsPage'), {
    permission: 'view_advertising_emails',
  }),
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

  route('account/users', '/account/users', 'main', remote('mfe_account', 'UsersPage'), { permission: 'team_features' }),
  route('account/profile', '/account/profile', 'main', remote('mfe_account', 'ProfilePage')),
  route('account/change-password', '/account/change-password', 'main', remote('mfe_account', 'ChangePasswordPage')),
  route('account/general-settings', '/account/general-settings', 'main', remote('mfe_account', 'GeneralSettingsPage')),
  route('account/billing', '/account/billing', 'main', remote('mfe_account', 'BillingPage')),
  route('account/api-access', '/account/api-access', 'main', remote('mfe_account', 'ApiAccessPage'), {
    permission: 'api_access',
  }),
  route('account/custom-domains', '/account/custom-domains', 'main', remote('mfe_account', 'CustomDomainsPage'), {
    permission: 'manage_domains',
  }),

  route('tenants', '/tenants', 'main', remote('mfe_admin', 'TenantsPage'), { permission: 'admin_tenants' }),
  route('plans', '/plans', 'main', remote('mfe_admin', 'PlansPage'), { permission: 'admin_plans' }),
  route('applets', '/applets', 'main', remote('mfe_admin', 'AppletsPage'), { permission: 'admin_applets' }),
  route('applet', '/applets/:applet_id', 'main', remote('mfe_admin', 'AppletsPage'), { permission: 'admin_applets' }),
];

/** Every module each remote must expose (the remotes' webpack configs are checked against this). */
export function exposedModules(name: RemoteName): string[] {
  return [...new Set(ROUTES.flatMap((r) => ('remote' in r.page && r.page.remote === name ? [r.page.module] : [])))];
}
