import '../styles.css';
import { useSearchParams } from '@console/shared/router';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '@console/shared/ui';
import { PageHeader } from '@console/shared/layout';
import { allAttributesQuery } from '../features/attributes/api';
import { ImportJobView } from '../features/import/import-job-view';
import { ImportWizard } from '../features/import/import-wizard';
import { RecentImports } from '../features/import/recent-imports';

/**
 * Import contacts (manage_contacts): a CSV file is mapped here and imported by the gateway as a job.
 * `?job=<id>` shows that job, so the page can be left and revisited while it runs.
 */
export default function ContactsImportPage() {
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  // Without the custom_attributes permission this fails: the columns then map to contact fields only.
  const attributes = useQuery(allAttributesQuery());
  return (
    <section>
      <PageHeader
        title="Import contacts"
        description="Bring contacts in from a CSV file: map its columns to contact fields and custom attributes, and add them to a list."
      />
      {jobId ? (
        <ImportJobView key={jobId} jobId={jobId} onAnother={() => setParams({})} />
      ) : attributes.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="h-4 w-4" decorative />
          Loading…
        </p>
      ) : (
        <ImportWizard attributes={attributes.data?.records ?? []} onStarted={(job) => setParams({ job: job._id })} />
      )}
      <RecentImports />
    </section>
  );
}
