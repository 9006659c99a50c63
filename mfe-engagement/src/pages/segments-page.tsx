import '../styles.css';
import { PlannedPage } from '@console/shared';

export default function Page() {
  return (
    <PlannedPage title="Segments" description="Target contacts by rules over their fields, lists and attributes." />
  );
}
