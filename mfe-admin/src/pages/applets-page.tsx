import '../styles.css';
import { useParams } from '@console/shared/router';
import { AppletEditor } from '../features/applets/applet-editor';
import { AppletsScreen } from '../features/applets/applets-screen';

/** Applets (admin_applets): the grid at /applets, the form at /applets/:applet_id (`new` for a new one). */
export default function AppletsPage() {
  const { applet_id: appletId } = useParams();
  return appletId ? <AppletEditor key={appletId} appletId={appletId} /> : <AppletsScreen />;
}
