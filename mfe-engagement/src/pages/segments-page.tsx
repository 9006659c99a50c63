import '../styles.css';
import { SegmentsScreen } from '../features/segments/segments-screen';

/** Segments (manage_contacts): saved rule-based audiences with a live count. */
export default function SegmentsPage() {
  return <SegmentsScreen />;
}
