import { Link } from '@console/shared/router';
import { featureForPermission } from '@console/shared/access';
import { consoleStore, signOut, stopImpersonation, useConsole } from '@console/shared/session';
import { PROFILE_MENU_WIDTH } from '@console/shared/ui';
import { Dropdown } from '@console/shared/overlays';
import { headerMenuFor } from '../menu';
import { CommunitySwitcher } from './community-switcher';

function Avatar({ src }: { src: string | null }) {
  if (src) return <img src={src} alt="" className="h-8 w-8 rounded-full object-cover" />;
  return (
    <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-600 text-white">
      <svg viewBox="0 0 20 20" className="h-5 w-5 fill-current">
        <path d="M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0H3Z" />
      </svg>
    </span>
  );
}

/**
 * Top header: sidebar toggle (not for global_admin), the community switcher (people in several
 * communities), impersonation banner or name + avatar, profile menu.
 */
export function Header({ onOpenSidebar }: { onOpenSidebar: (() => void) | null }) {
  const user = useConsole((s) => s.user);
  const busy = useConsole((s) => s.busy);
  if (!user) return null;
  const name = `${user.first_name} ${user.last_name}`.trim() || user.email;
  const items = headerMenuFor(user).map((item) =>
    item.state === 'locked'
      ? {
          label: item.label,
          locked: true,
          onSelect: () =>
            consoleStore.getState().openUpgrade(item.permission ? featureForPermission(item.permission) : null),
        }
      : { label: item.label, href: item.to },
  );

  return (
    <header className="sticky top-0 z-20 flex h-16 items-center gap-4 border-b border-slate-200 bg-white px-4 sm:px-6">
      {onOpenSidebar && (
        <button
          type="button"
          onClick={onOpenSidebar}
          className="rounded-md p-2 text-slate-600 hover:bg-slate-100 lg:hidden"
          aria-label="Open navigation"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
            <path d="M3 5h14v2H3zM3 9h14v2H3zM3 13h14v2H3z" />
          </svg>
        </button>
      )}
      <div className="flex-1" />
      {!user.is_impersonating && <CommunitySwitcher userId={user._id} />}
      {user.is_impersonating ? (
        <div className="flex items-center gap-3">
          <span className="text-sm text-slate-700">
            Impersonating <strong data-testid="tenant-name">{user.tenant_name ?? user.email}</strong>
          </span>
          <button
            type="button"
            disabled={busy}
            onClick={() => void stopImpersonation()}
            className="rounded-md bg-amber-500 px-3 py-1.5 text-sm font-medium text-white hover:bg-amber-600 disabled:opacity-60"
          >
            Stop Impersonating
          </button>
        </div>
      ) : null}
      <Dropdown
        // Not impersonating, the visible name labels the button (WCAG 2.5.3 label in name).
        label={user.is_impersonating ? 'Profile menu' : undefined}
        width={PROFILE_MENU_WIDTH}
        trigger={
          <span className="flex items-center gap-2">
            {!user.is_impersonating && (
              <span className="text-sm font-medium text-slate-800">
                {name}
                <span className="sr-only"> profile menu</span>
              </span>
            )}
            <Avatar src={user.avatar} />
          </span>
        }
        items={[...items, { label: 'Sign Out', onSelect: signOut }]}
        renderLink={(href, children, props) => (
          <Link to={href} {...props}>
            {children}
          </Link>
        )}
      />
    </header>
  );
}
