import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Edit automation" description="Design an automation's steps." />;
}
