import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="E-mails" description="Write, schedule and send campaigns." />;
}
