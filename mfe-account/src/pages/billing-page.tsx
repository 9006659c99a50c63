import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Billing" description="Your plan, usage and invoices." />;
}
