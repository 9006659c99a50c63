import '../styles.css';
import { ApiAccessScreen } from '../features/api-access/api-access-screen';

/** API Access (account/api-access, api_access): the community's API keys and their activity. */
export default function ApiAccessPage() {
  return <ApiAccessScreen />;
}
