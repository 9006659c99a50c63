import '../styles.css';
import { EmailsScreen } from '../features/emails/emails-screen';

/** E-mails (permission view_engagement_emails): the campaigns grid. */
export default function EmailsPage() {
  return <EmailsScreen />;
}
