import { NavLink } from '@console/shared/router';

const TAB =
  'border-b-2 border-transparent px-1 pb-2 text-sm font-medium text-slate-600 hover:text-slate-900 aria-[current=page]:border-brand-700 aria-[current=page]:text-brand-800';

/** API Access's two views (ours), each with its own address: the keys and the webhook endpoints. */
export function ApiAccessTabs() {
  return (
    <nav aria-label="API access" className="mb-4 flex gap-6 border-b border-slate-200">
      <NavLink to="/account/api-access" end className={TAB}>
        Keys
      </NavLink>
      <NavLink to="/account/api-access/webhooks" className={TAB}>
        Webhooks
      </NavLink>
    </nav>
  );
}
