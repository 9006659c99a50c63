import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="Automations" description="Send the right e-mail when something happens." />;
}
