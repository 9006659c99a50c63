import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Widgets" description="Sign-up widgets for your website." />;
}
