import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return <PlannedPage title="Smart Contracts" description="Watch on-chain events and react to them." />;
}
