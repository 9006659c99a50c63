import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="Compose advertising e-mail" description="Write an advertising e-mail." />;
}
