import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Lists" description="Group contacts into lists for widgets and sends." />;
}
