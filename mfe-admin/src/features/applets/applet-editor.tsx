import { useQuery } from '@tanstack/react-query';
import { Link } from '@console/shared/router';
import { PageHeader } from '@console/shared/layout';
import { APPLETS_KEY, fetchApplet } from './api';
import { AppletForm } from './applet-form';

/** `/applets/new` is a new applet; any other id the applet to edit. */
export const NEW_APPLET = 'new';

/** The applet form page (`/applets/:applet_id`): loads the applet being edited, then the form. */
export function AppletEditor({ appletId }: { appletId: string }) {
  const isNew = appletId === NEW_APPLET;
  const applet = useQuery({
    queryKey: [...APPLETS_KEY, 'one', appletId],
    queryFn: () => fetchApplet(appletId),
    enabled: !isNew,
  });
  return (
    <section>
      <PageHeader
        title={isNew ? 'New applet' : 'Edit applet'}
        description={
          <Link to="/applets" className="font-medium text-brand-700 underline">
            Back to applets
          </Link>
        }
      />
      {isNew ? (
        <AppletForm applet={null} />
      ) : applet.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          Loading the applet…
        </p>
      ) : applet.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Could not load the applet. {applet.error.message}
        </p>
      ) : (
        <AppletForm key={applet.data._id} applet={applet.data} />
      )}
    </section>
  );
}
