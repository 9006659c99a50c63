import '../styles.css';
import { useQuery } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import { PageHeader } from '@console/shared/layout';
import { Button, Spinner } from '@console/shared/ui';
import { SETTINGS_KEY, fetchSettings } from '../features/settings/api';
import { SettingsForm } from '../features/settings/settings-form';

/**
 * General Settings (account/general-settings; company_settings, as the header menu requires:
 * docs/decisions.md, "Choices where the spec is silent"): the community's name, e-mail defaults and time zone.
 */
export default function GeneralSettingsPage() {
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: fetchSettings });
  return (
    <section>
      <PageHeader title="General Settings" description="Your community's name and settings." />
      {settings.isPending ? (
        <Spinner label="Loading the settings" />
      ) : settings.isError ? (
        <div role="alert" className="max-w-xl rounded-lg border border-red-200 bg-red-50 p-5 text-sm text-red-800">
          <p className="font-medium">{messageOf(settings.error, 'The settings could not be loaded.')}</p>
          <Button
            variant="secondary"
            className="mt-3"
            busy={settings.isFetching}
            onClick={() => void settings.refetch()}
          >
            Retry
          </Button>
        </div>
      ) : (
        <SettingsForm settings={settings.data} />
      )}
    </section>
  );
}
