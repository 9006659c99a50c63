import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@console/shared/router';
import type { SendingDomain } from '@console/shared/contracts';
import { formatDateTime } from '@console/shared/format';
import { PageHeader } from '@console/shared/layout';
import { useDialogSlot } from '@console/shared/overlays';
import { Button, Spinner } from '@console/shared/ui';
import { AddDomainDialog } from './add-domain-dialog';
import { DOMAINS_KEY, fetchDomains } from './api';
import { DeleteDomainDialog } from './delete-domain-dialog';
import { DomainDetail } from './domain-detail';
import { STATUS_LABELS } from './labels';
import { StatusBadge } from './status-badge';

type DialogRequest = { kind: 'add' } | { kind: 'delete'; domain: SendingDomain };

const LIST_PATH = '/account/custom-domains';

/**
 * Custom Domains (account/custom-domains, manage_domains): the community's sending domains with their
 * status, Add domain, and one domain's records with Verify and Delete at its own address
 * (/account/custom-domains/:domain_id), so a reload, back and forward keep what is shown.
 */
export function DomainsScreen() {
  const domains = useQuery({ queryKey: DOMAINS_KEY, queryFn: fetchDomains });
  const navigate = useNavigate();
  const selected = useParams().domain_id ?? null;
  const setSelected = (id: string | null) => void navigate(id ? `${LIST_PATH}/${encodeURIComponent(id)}` : LIST_PATH);
  const { dialog, open, close } = useDialogSlot<DialogRequest>();
  const records = domains.data?.records ?? [];
  const current = records.find((d) => d._id === selected) ?? null;

  return (
    <section>
      <PageHeader
        title="Custom Domains"
        description="Send your e-mails from your own domain: add it, publish its DNS records, and verify it."
        actions={<Button onClick={() => open({ kind: 'add' })}>Add domain</Button>}
      />
      {domains.isPending && <Spinner label="Loading domains" />}
      {domains.error && (
        <p role="alert" className="text-sm text-red-700">
          {domains.error.message}
        </p>
      )}
      {current ? (
        <DomainDetail
          key={current._id}
          domain={current}
          onBack={() => setSelected(null)}
          onDelete={() => open({ kind: 'delete', domain: current })}
        />
      ) : (
        domains.data &&
        (records.length === 0 ? (
          <p className="text-slate-600">No domains yet. Add the domain you want to send from.</p>
        ) : (
          <table className="w-full text-left text-sm" aria-label="Sending domains">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Domain
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Status
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Last checked
                </th>
                <th scope="col" className="py-2 font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {records.map((d) => (
                <tr key={d._id} className="border-b border-slate-100">
                  <td className="py-2 pr-4 font-medium text-slate-900">{d.domain}</td>
                  <td className="py-2 pr-4">
                    <StatusBadge status={d.status} label={STATUS_LABELS[d.status]} />
                  </td>
                  <td className="py-2 pr-4 text-slate-600">
                    {d.last_checked_at ? formatDateTime(d.last_checked_at) : '—'}
                  </td>
                  <td className="py-2">
                    <span className="inline-flex gap-3">
                      <Button variant="link" aria-label={`Records of ${d.domain}`} onClick={() => setSelected(d._id)}>
                        Records
                      </Button>
                      <Button
                        variant="link"
                        className="text-red-700"
                        aria-label={`Delete ${d.domain}`}
                        onClick={() => open({ kind: 'delete', domain: d })}
                      >
                        Delete
                      </Button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))
      )}
      {dialog.kind === 'add' && (
        <AddDomainDialog
          key={dialog.seq}
          open={dialog.open}
          onClose={close}
          onAdded={(added) => {
            close();
            setSelected(added._id);
          }}
        />
      )}
      {dialog.kind === 'delete' && (
        <DeleteDomainDialog
          key={dialog.seq}
          domain={dialog.domain}
          open={dialog.open}
          onClose={close}
          onDeleted={() => {
            close();
            setSelected(null);
          }}
        />
      )}
    </section>
  );
}
