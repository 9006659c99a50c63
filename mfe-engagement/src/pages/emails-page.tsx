import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="E-mails" description="Write, schedule and send campaigns." />;
}
