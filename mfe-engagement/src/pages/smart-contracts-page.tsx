import '../styles.css';
import { ContractsScreen } from '../features/smart-contracts/contracts-screen';

/** Smart Contracts (spec section 2, engagement/smart-contracts; permission monitor_smart_contracts). */
export default function SmartContractsPage() {
  return <ContractsScreen />;
}
