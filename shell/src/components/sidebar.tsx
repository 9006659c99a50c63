import { NavLink } from '@console/shared/router';
import { featureForPermission } from '@console/shared/access';
import { consoleStore } from '@console/shared/session';
import type { MenuGroup, MenuLink } from '../menu';

function LockIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
      <path d="M10 2a4 4 0 0 0-4 4v2H5a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1V9a1 1 0 0 0-1-1h-1V6a4 4 0 0 0-4-4Zm-2 6V6a2 2 0 1 1 4 0v2H8Z" />
    </svg>
  );
}

const itemClass = 'flex w-full items-center justify-between rounded-md px-3 py-2 text-sm';

function Item({ item, onNavigate }: { item: MenuLink; onNavigate?: () => void }) {
  if (item.state === 'locked') {
    const feature = item.permission ? featureForPermission(item.permission) : null;
    return (
      <button
        type="button"
        className={`${itemClass} text-slate-400 hover:bg-slate-800`}
        onClick={() => consoleStore.getState().openUpgrade(feature)}
        aria-label={`${item.label} (locked: upgrade your plan)`}
      >
        <span>{item.label}</span>
        <LockIcon />
      </button>
    );
  }
  if (item.external) {
    return (
      <a
        className={`${itemClass} text-slate-200 hover:bg-slate-800`}
        href={item.to}
        target="_blank"
        rel="noopener noreferrer"
      >
        {item.label}
      </a>
    );
  }
  return (
    <NavLink
      to={item.to}
      end={item.to === '/'}
      onClick={onNavigate}
      className={({ isActive }) =>
        `${itemClass} ${isActive ? 'bg-slate-800 text-white' : 'text-slate-200 hover:bg-slate-800'}`
      }
    >
      {item.label}
    </NavLink>
  );
}

/** The sidebar's contents; the layout places it fixed on desktop and in a slide-in on mobile. */
export function Sidebar({ groups, onNavigate }: { groups: MenuGroup[]; onNavigate?: () => void }) {
  return (
    <nav aria-label="Main" className="flex h-full flex-col gap-6 overflow-y-auto bg-slate-900 px-3 py-6">
      <div className="px-3 text-base font-semibold text-white">Community Console</div>
      {groups.map((group, i) => (
        <div key={group.label ?? `group-${i}`}>
          {group.label && (
            <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-400">{group.label}</h2>
          )}
          <ul className="space-y-1">
            {group.items.map((item) => (
              <li key={`${item.label}-${item.to}`}>
                <Item item={item} onNavigate={onNavigate} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
