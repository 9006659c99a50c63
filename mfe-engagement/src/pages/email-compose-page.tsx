import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Compose e-mail" description="Write an e-mail." />;
}
