import '../styles.css';
import { useConsole } from '@console/shared/session';
import { AdminTransactionalScreen, TransactionalScreen } from '../features/transactional/transactional-screen';

/**
 * Transactional E-mails (spec section 2, engagement/transactional-emails; permission
 * transactional_emails): the tenant's transactional templates. A super admin (not impersonating), who
 * reaches it from the admin sidebar's "Transactional", sees every community's volume and failures.
 */
export default function TransactionalEmailsPage() {
  const platformAdmin = useConsole((s) => s.user?.role === 'super_admin' && !s.user.is_impersonating);
  return platformAdmin ? <AdminTransactionalScreen /> : <TransactionalScreen />;
}
