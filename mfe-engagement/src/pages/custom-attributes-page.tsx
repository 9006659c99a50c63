import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Custom Attributes" description="Define the extra fields your contacts carry." />;
}
