import '../styles.css';
import { DomainsScreen } from '../features/domains/domains-screen';

/** Custom Domains (account/custom-domains, permission manage_domains, plan feature custom_domains). */
export default function CustomDomainsPage() {
  return <DomainsScreen />;
}
