import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Templates" description="Reusable e-mail designs." />;
}
