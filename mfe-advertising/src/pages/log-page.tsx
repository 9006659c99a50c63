import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="Advertising delivery log" description="Delivery of an advertising e-mail." />;
}
