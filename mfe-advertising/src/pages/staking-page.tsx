import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return (
    <PlannedPage title="Stake $EMT for ads" description="Stake $EMT to put your ads in front of web3 communities." />
  );
}
