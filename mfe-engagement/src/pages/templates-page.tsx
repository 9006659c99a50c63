import '../styles.css';
import { TemplatesScreen } from '../features/templates/templates-screen';

/** Templates (permission templates): reusable e-mail designs, opened in the designer. */
export default function TemplatesPage() {
  return <TemplatesScreen />;
}
