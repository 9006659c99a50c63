import { menuItemState, type AccessSubject, type MenuItemState, type Permission } from '@console/shared/access';

/**
 * The sidebar and header menus of spec section 2 as data, resolved per user with the menu rule.
 * Components only render what this returns.
 */
export interface MenuLink {
  label: string;
  to: string;
  state: Exclude<MenuItemState, 'hidden'>;
  permission?: Permission;
  external?: boolean;
}
export interface MenuGroup {
  label: string | null;
  items: MenuLink[];
}

interface ItemDef {
  label: string;
  to: string;
  permission?: Permission;
  /** Extra condition beyond the menu rule (e.g. only while impersonating). */
  when?: (u: MenuSubject) => boolean;
  external?: boolean;
}

export interface MenuSubject extends AccessSubject {
  tenant_id: string | null;
}

function resolve(items: ItemDef[], user: MenuSubject): MenuLink[] {
  const out: MenuLink[] = [];
  for (const item of items) {
    if (item.when && !item.when(user)) continue;
    const state = menuItemState(item.permission, user);
    if (state === 'hidden') continue;
    out.push({ label: item.label, to: item.to, state, permission: item.permission, external: item.external });
  }
  return out;
}

const impersonating = (u: MenuSubject) => u.is_impersonating;

const TENANT_SIDEBAR: { label: string | null; items: ItemDef[] }[] = [
  { label: null, items: [{ label: 'Overview', to: '/' }] },
  {
    label: 'Onboarding',
    items: [
      {
        label: 'Community Page',
        to: '/onboarding/community-page',
        permission: 'manage_community',
        when: impersonating,
      },
      { label: 'Widgets', to: '/onboarding/widgets', permission: 'manage_community' },
    ],
  },
  {
    label: 'Engagement',
    items: [
      { label: 'Contacts', to: '/engagement/contacts', permission: 'manage_contacts' },
      { label: 'Lists', to: '/engagement/lists', permission: 'manage_contacts' },
      { label: 'Segments', to: '/engagement/segments', permission: 'manage_contacts' },
      { label: 'E-mails', to: '/engagement/emails', permission: 'view_engagement_emails' },
      { label: 'Templates', to: '/engagement/templates', permission: 'templates' },
      { label: 'Custom Attributes', to: '/engagement/custom-attributes', permission: 'custom_attributes' },
      { label: 'Automations', to: '/engagement/automations', permission: 'automations' },
      { label: 'Smart Contracts', to: '/engagement/smart-contracts', permission: 'monitor_smart_contracts' },
      { label: 'Transactional E-mails', to: '/engagement/transactional-emails', permission: 'transactional_emails' },
    ],
  },
  {
    label: 'Advertising',
    items: [
      { label: 'E-mails', to: '/advertising/emails', permission: 'view_advertising_emails', when: impersonating },
    ],
  },
];

const SUPER_ADMIN_SIDEBAR: ItemDef[] = [
  { label: 'Dashboard', to: '/' },
  { label: 'Engagement', to: '/engagement/contacts' },
  { label: 'Advertising', to: '/advertising/emails' },
  { label: 'Transactional', to: '/engagement/transactional-emails' },
  { label: 'Tenants', to: '/tenants' },
  { label: 'Templates', to: '/engagement/templates' },
  { label: 'Plans', to: '/plans' },
  { label: 'Applets', to: '/applets' },
];

/** Sidebar groups for a user; null means no sidebar at all (global_admin: no sidebar, no toggle). */
export function sidebarFor(user: MenuSubject, docsUrl: string): MenuGroup[] | null {
  if (user.role === 'global_admin') return null;
  if (user.role === 'super_admin') {
    return [{ label: null, items: SUPER_ADMIN_SIDEBAR.map((i) => ({ label: i.label, to: i.to, state: 'shown' })) }];
  }
  const groups = TENANT_SIDEBAR.map((g) => ({ label: g.label, items: resolve(g.items, user) })).filter(
    (g) => g.items.length > 0,
  );
  groups.push({ label: null, items: [{ label: 'Developer Docs', to: docsUrl, state: 'shown', external: true }] });
  return groups;
}

const HEADER_MENU: ItemDef[] = [
  { label: 'Your Profile', to: '/account/profile' },
  { label: 'General Settings', to: '/account/general-settings', permission: 'company_settings' },
  { label: 'Billing', to: '/account/billing', permission: 'company_settings' },
  { label: 'Custom Domains', to: '/account/custom-domains', permission: 'manage_domains' },
  { label: 'Manage Users', to: '/account/users', permission: 'team_features' },
  { label: 'API Access', to: '/account/api-access', permission: 'api_access' },
];

/** Header menu entries (Sign Out is added by the header itself). Account pages need a tenant. */
export function headerMenuFor(user: MenuSubject): MenuLink[] {
  if (user.tenant_id === null) return [];
  return resolve(HEADER_MENU, user);
}
