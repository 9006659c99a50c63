import { NavLink } from '@console/shared/router';
import type { ConsoleUser } from '@console/shared/session';

const TAB =
  'border-b-2 px-1 pb-2 text-sm font-medium aria-[current=page]:border-brand-700 aria-[current=page]:text-brand-800';

/** Whether the user sees the team's activity: its owners (the gateway refuses everyone else). */
export const seesTeamActivity = (me: Pick<ConsoleUser, 'role'>) => me.role === 'tenant_admin';

/** Members and Activity, side by side under Manage Users; the Activity tab for owners only. */
export function TeamTabs({ me }: { me: Pick<ConsoleUser, 'role'> }) {
  if (!seesTeamActivity(me)) return null;
  return (
    <nav aria-label="Team" className="mb-4 flex gap-6 border-b border-slate-200">
      <NavLink to="/account/users" end className={`${TAB} border-transparent text-slate-600 hover:text-slate-900`}>
        Members
      </NavLink>
      <NavLink to="/account/users/activity" className={`${TAB} border-transparent text-slate-600 hover:text-slate-900`}>
        Activity
      </NavLink>
    </nav>
  );
}
