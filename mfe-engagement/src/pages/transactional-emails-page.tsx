import '../styles.css';
import { PlannedPage } from '@console/shared/layout';

export default function Page() {
  return <PlannedPage title="Transactional E-mails" description="Receipts and notices sent through the API." />;
}
