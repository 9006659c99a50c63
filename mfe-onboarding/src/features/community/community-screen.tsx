import { useConsole } from '@console/shared/session';
import { Spinner } from '@console/shared/ui';
import { PageHeader } from '@console/shared/layout';
import { CommunityEditor } from './community-editor';
import { useMyCommunity } from './api';

/** The Community Page screen: loads the tenant's community (none yet: an empty form) and edits it. */
export function CommunityScreen() {
  const community = useMyCommunity();
  const tenantName = useConsole((s) => s.user?.tenant_name ?? null);
  const reload = async () => (await community.refetch({ throwOnError: true })).data ?? null;

  return (
    <section>
      <PageHeader title="Community Page" description="Your community's public page." />
      {community.isPending ? (
        <Spinner />
      ) : community.isError ? (
        <p className="text-sm text-slate-600">The community page could not be loaded. Please reload the page.</p>
      ) : (
        <CommunityEditor community={community.data} tenantName={tenantName} reload={reload} />
      )}
    </section>
  );
}
