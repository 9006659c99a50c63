import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return (
    <PlannedPage
      title="Contacts"
      description="Everyone in your community: wallets and e-mail addresses, their lists and attributes."
    />
  );
}
