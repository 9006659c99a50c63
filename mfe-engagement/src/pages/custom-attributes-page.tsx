import '../styles.css';
import { AttributesScreen } from '../features/attributes/attributes-screen';

/** Custom Attributes (custom_attributes): define the extra fields contacts carry. */
export default function CustomAttributesPage() {
  return <AttributesScreen />;
}
