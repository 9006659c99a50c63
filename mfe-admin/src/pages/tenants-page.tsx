import '../styles.css';
import { TenantsScreen } from '../features/tenants/tenants-screen';

/** Tenants (admin_tenants): the platform's communities, their figures, plans, settings and people. */
export default function TenantsPage() {
  return <TenantsScreen />;
}
