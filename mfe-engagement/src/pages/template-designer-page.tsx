import '../styles.css';
import { useParams } from '@console/shared/router';
import { DesignerScreen } from '../features/templates/designer/designer-screen';

/**
 * The e-mail designer (minimal layout, permission templates). The editor itself (GrapesJS + MJML) is a
 * chunk of its own, requested when this page mounts: nothing of it loads with the shell or the grid.
 */
export default function TemplateDesignerPage() {
  const { id = '' } = useParams();
  return <DesignerScreen templateId={id} />;
}
