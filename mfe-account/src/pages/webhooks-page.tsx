import '../styles.css';
import { WebhooksScreen } from '../features/webhooks/webhooks-screen';

/** Webhooks (account/api-access/webhooks, permission api_access, plan feature api_access). */
export default function WebhooksPage() {
  return <WebhooksScreen />;
}
