import '../styles.css';
import { useLocation, useParams } from '@console/shared/router';
import { ComposeScreen } from '../features/emails/compose/compose-screen';

/** Compose an e-mail (minimal layout, no permission of its own: the gateway checks view_engagement_emails). */
export default function EmailComposePage() {
  const { id } = useParams();
  const location = useLocation();
  const reload = (location.state as { reload?: number } | null)?.reload;
  return <ComposeScreen campaignId={id ?? null} reloadKey={reload} />;
}
