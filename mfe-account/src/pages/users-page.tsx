import '../styles.css';
import { useConsole } from '@console/shared/session';
import { UsersScreen } from '../features/users/users-screen';

/** Manage Users (account/users, team_features): the team, their access, and invitations. */
export default function UsersPage() {
  const me = useConsole((s) => s.user);
  return me ? <UsersScreen me={me} /> : null;
}
