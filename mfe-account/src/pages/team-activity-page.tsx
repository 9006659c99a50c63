import '../styles.css';
import { useConsole } from '@console/shared/session';
import { ActivityScreen } from '../features/users/activity-screen';

/** Manage Users' Activity tab (account/users/activity, team_features; owners only, the gateway says). */
export default function TeamActivityPage() {
  const me = useConsole((s) => s.user);
  return me ? <ActivityScreen me={me} /> : null;
}
