import '../styles.css';
import { WidgetsScreen } from '../features/widgets/widgets-screen';

/** Widgets (manage_community): sign-up widgets for the tenant's websites, with their embed code. */
export default function WidgetsPage() {
  return <WidgetsScreen />;
}
