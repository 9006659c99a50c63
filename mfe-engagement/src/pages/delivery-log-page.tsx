import '../styles.css';
import { PlannedPage } from '@console/shared/layout';
import { useMatch, useParams } from '@console/shared/router';
import { DeliveryLogScreen } from '../features/emails/log/delivery-log-screen';
import { campaignLogSource } from '../features/emails/log/log-source';

/**
 * The delivery log (spec section 2: engagement/emails/log/:id, and "the same delivery log view" for
 * automations at engagement/automations/log/:id). The source of the sends comes from the route:
 * campaigns today; automations show the planned page until their sends exist.
 */
export default function DeliveryLogPage() {
  const { id = '' } = useParams();
  const automation = useMatch('/engagement/automations/log/:id');
  if (automation)
    return <PlannedPage title="Delivery log" description="Who received an e-mail, opened it and clicked." />;
  return <DeliveryLogScreen source={campaignLogSource(id)} />;
}
