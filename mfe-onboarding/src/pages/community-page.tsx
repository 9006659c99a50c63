import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Community Page" description="Your community's public page." />;
}
