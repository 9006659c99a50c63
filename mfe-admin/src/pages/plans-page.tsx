import '../styles.css';
import { PlansScreen } from '../features/plans/plans-screen';

/** Plans (admin_plans): view and edit the plan catalogue. */
export default function PlansPage() {
  return <PlansScreen />;
}
