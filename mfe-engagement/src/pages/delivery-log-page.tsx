import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="Delivery log" description="Who received an e-mail, opened it and clicked." />;
}
