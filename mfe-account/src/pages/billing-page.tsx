import '../styles.css';
import { Spinner } from '@console/shared/ui';
import { PageHeader } from '@console/shared/layout';
import { useBillingOverview, useRefetchOnPlanChanged } from '../features/billing/api';
import { BillingOverviewView } from '../features/billing/billing-overview';
import { BillingLoadError } from '../features/billing/load-error';

/** Billing: plan, e-mail volume, next invoice, scheduled change, payment method and invoices. */
export default function BillingPage() {
  const overview = useBillingOverview();
  useRefetchOnPlanChanged();
  return (
    <section>
      <PageHeader title="Billing" description="Your plan, e-mail volume, payment method and invoices." />
      {overview.isPending && (
        <div className="flex justify-center p-10">
          <Spinner className="h-8 w-8" label="Loading billing" />
        </div>
      )}
      {overview.isError && !overview.data && (
        <BillingLoadError
          error={overview.error}
          retrying={overview.isFetching}
          onRetry={() => void overview.refetch()}
        />
      )}
      {overview.data && <BillingOverviewView overview={overview.data} />}
    </section>
  );
}
