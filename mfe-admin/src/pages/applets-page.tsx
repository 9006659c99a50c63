import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="Applets" description="Applets available to communities." />;
}
