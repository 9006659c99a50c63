import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Import contacts" description="Bring contacts in from a CSV file." />;
}
