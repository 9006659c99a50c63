import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="General Settings" description="Your community's name and settings." />;
}
