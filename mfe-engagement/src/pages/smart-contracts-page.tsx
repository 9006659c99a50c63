import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="Smart Contracts" description="Watch on-chain events and react to them." />;
}
