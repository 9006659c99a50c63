import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="Compose e-mail" description="Write an e-mail." />;
}
