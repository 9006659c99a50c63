import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Plans" description="The plan catalogue." />;
}
