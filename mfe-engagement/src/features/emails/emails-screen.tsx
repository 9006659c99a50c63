import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@console/shared/router';
import { Button, SelectField, notify } from '@console/shared/ui';
import { ConfirmDialog, useDialogSlot } from '@console/shared/overlays';
import { QueryGrid, useListQuery, type DataGridColumn } from '@console/shared/lists';
import { PageHeader } from '@console/shared/layout';
import { messageOf } from '@console/shared/api';
import { formatCount, formatDateTime } from '@console/shared/format';
import { CAMPAIGN_SORT_FIELDS, CAMPAIGN_STATUSES, type CampaignSummary } from '@console/shared/contracts';
import {
  CAMPAIGNS_KEY,
  deleteCampaign,
  duplicateCampaign,
  fetchCampaigns,
  invalidateCampaigns,
  runCampaignAction,
} from './api';
import { POLL_MS, STATUS_LABELS, anySending, formatRate, rowActions, type RowAction } from './campaign-rules';
import { CampaignStatusBadge } from './status-badge';
import { CreateEmailDialog } from './create-email-dialog';
import { composePath, logPath } from './paths';

type SortField = (typeof CAMPAIGN_SORT_FIELDS)[number];

type DialogRequest = { kind: 'create' } | { kind: 'cancel' | 'delete'; campaign: CampaignSummary };

/** When the row's e-mail goes or went out: sent time, start, or schedule. */
function whenText(c: CampaignSummary): string {
  if (c.finished_at) return `Sent ${formatDateTime(c.finished_at)}`;
  if (c.started_at) return `Started ${formatDateTime(c.started_at)}`;
  if (c.scheduled_at) return `Scheduled for ${formatDateTime(c.scheduled_at)}`;
  return '—';
}

const ACTION_LABELS: Record<Exclude<RowAction, 'edit' | 'log'>, string> = {
  duplicate: 'Duplicate',
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel',
  delete: 'Delete',
};

/**
 * E-mails (spec section 2, engagement/emails): the campaigns grid with the spec's list behaviour,
 * a status filter, create, and each row's actions by status. While a row is sending, the page is
 * fetched again every POLL_MS so its figures move.
 */
export function EmailsScreen() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const list = useListQuery<SortField>({ defaultSort: { field: 'updated_at', order: 'desc' } });
  const campaigns = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'list', list.query],
    queryFn: () => fetchCampaigns(list.query),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anySending(query.state.data?.records) ? POLL_MS : false),
  });
  const { dialog, open, close } = useDialogSlot<DialogRequest>();
  const [busy, setBusy] = useState<string | null>(null);

  const act = async (campaign: CampaignSummary, action: 'duplicate' | 'pause' | 'resume') => {
    setBusy(`${action}:${campaign._id}`);
    try {
      if (action === 'duplicate') {
        const copy = await duplicateCampaign(campaign._id);
        notify.success(`"${copy.name}" created.`);
        void navigate(composePath(copy._id));
      } else {
        await runCampaignAction(campaign._id, action);
        notify.success(action === 'pause' ? 'Sending paused.' : 'Sending resumed.');
      }
      await invalidateCampaigns(client);
    } catch (error) {
      notify.error(messageOf(error, 'That did not work. Please try again.'));
    } finally {
      setBusy(null);
    }
  };

  const status = list.state.filters.status ?? '';
  const columns = useMemo<DataGridColumn<CampaignSummary, SortField>[]>(
    () => [
      {
        key: 'name',
        header: 'Name',
        sortField: 'name',
        render: (c) => (
          <div className="min-w-0">
            <Link
              to={rowActions(c).includes('edit') ? composePath(c._id) : logPath(c._id)}
              className="font-medium text-brand-700 hover:underline"
            >
              {c.name}
            </Link>
            <p className="max-w-xs truncate text-xs text-slate-600">{c.subject || 'No subject yet'}</p>
          </div>
        ),
      },
      {
        key: 'status',
        header: 'Status',
        render: (c) => (
          <span className="flex flex-col gap-1">
            <CampaignStatusBadge status={c.status} />
            {c.failure_reason && <span className="max-w-[12rem] text-xs text-red-700">{c.failure_reason}</span>}
          </span>
        ),
      },
      { key: 'audience', header: 'Audience', render: (c) => c.audience_label || '—', className: 'max-w-[14rem]' },
      { key: 'when', header: 'Scheduled or sent', sortField: 'scheduled_at', render: whenText },
      {
        key: 'recipients',
        header: 'Recipients',
        render: (c) => formatCount(c.stats.recipients),
        className: 'text-right',
      },
      { key: 'delivered', header: 'Delivered', render: (c) => formatCount(c.stats.delivered), className: 'text-right' },
      {
        key: 'opens',
        header: 'Open rate',
        render: (c) => formatRate(c.stats.open_rate, c.stats.delivered),
        className: 'text-right',
      },
      {
        key: 'clicks',
        header: 'Click rate',
        render: (c) => formatRate(c.stats.click_rate, c.stats.delivered),
        className: 'text-right',
      },
      {
        key: 'unsubscribed',
        header: 'Unsubscribes',
        render: (c) => formatCount(c.stats.unsubscribed),
        className: 'text-right',
      },
      { key: 'bounced', header: 'Bounces', render: (c) => formatCount(c.stats.bounced), className: 'text-right' },
      {
        key: 'actions',
        header: <span className="sr-only">Actions</span>,
        className: 'text-right whitespace-nowrap',
        render: (c) => (
          <span className="inline-flex items-center gap-3" data-testid="row-actions">
            {rowActions(c).map((action) => {
              if (action === 'edit')
                return (
                  <Link
                    key={action}
                    to={composePath(c._id)}
                    aria-label={`Edit ${c.name}`}
                    className="text-sm text-brand-700 hover:underline"
                  >
                    Edit
                  </Link>
                );
              if (action === 'log')
                return (
                  // The accessible name starts with the visible text (WCAG 2.5.3 Label in Name): the
                  // e-mail's name is added as hidden text, not by an aria-label that replaces it.
                  <Link key={action} to={logPath(c._id)} className="text-sm text-brand-700 hover:underline">
                    View log<span className="sr-only"> of {c.name}</span>
                  </Link>
                );
              const danger = action === 'cancel' || action === 'delete';
              return (
                <Button
                  key={action}
                  variant="link"
                  className={danger ? 'text-red-700' : undefined}
                  aria-label={`${ACTION_LABELS[action]} ${c.name}`}
                  busy={busy === `${action}:${c._id}`}
                  onClick={() =>
                    action === 'cancel' || action === 'delete'
                      ? open({ kind: action, campaign: c })
                      : void act(c, action)
                  }
                >
                  {ACTION_LABELS[action]}
                </Button>
              );
            })}
          </span>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- open/act only read state through setters
    [busy],
  );

  const confirmCancel = async (campaign: CampaignSummary) => {
    try {
      await runCampaignAction(campaign._id, 'cancel');
      notify.success(`"${campaign.name}" cancelled.`);
      await invalidateCampaigns(client);
    } catch (error) {
      notify.error(messageOf(error, 'The e-mail could not be cancelled.'));
    }
    close();
  };
  const confirmDelete = async (campaign: CampaignSummary) => {
    try {
      await deleteCampaign(campaign._id);
      notify.success(`"${campaign.name}" deleted.`);
      await invalidateCampaigns(client);
    } catch (error) {
      notify.error(messageOf(error, 'The e-mail could not be deleted.'));
    }
    close();
  };

  return (
    <section>
      <PageHeader
        title="E-mails"
        description="Write to your audience, send now or on a schedule, and see who opened and clicked."
        actions={<Button onClick={() => open({ kind: 'create' })}>Create e-mail</Button>}
      />
      <QueryGrid<CampaignSummary, SortField>
        label="E-mails"
        list={list}
        page={campaigns.data}
        error={campaigns.error?.message}
        search={{ label: 'Search e-mails', placeholder: 'Search by name' }}
        toolbar={
          <SelectField
            label="Status"
            value={status}
            onChange={(event) => list.setFilter('status', event.target.value)}
            containerClassName="w-48"
          >
            <option value="">All statuses</option>
            {CAMPAIGN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </SelectField>
        }
        columns={columns}
        rowKey={(c) => c._id}
        loading={campaigns.isFetching && !campaigns.data}
        empty={
          list.state.searchString || status
            ? 'No e-mails match.'
            : 'No e-mails yet. Create one to write to your audience.'
        }
      />
      {dialog.kind === 'create' && <CreateEmailDialog key={dialog.seq} open={dialog.open} onClose={close} />}
      {dialog.kind === 'cancel' && (
        <ConfirmDialog
          key={dialog.seq}
          open={dialog.open}
          onClose={close}
          title="Cancel this e-mail?"
          confirmVariant="danger"
          cancelText="Keep it"
          onConfirm={() => confirmCancel(dialog.campaign)}
        >
          <p className="text-sm">
            {dialog.campaign.status === 'scheduled'
              ? `"${dialog.campaign.name}" will not be sent.`
              : `Nobody else will receive "${dialog.campaign.name}". Those who already got it keep it.`}{' '}
            This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      {dialog.kind === 'delete' && (
        <ConfirmDialog
          key={dialog.seq}
          open={dialog.open}
          onClose={close}
          title="Delete this e-mail?"
          confirmVariant="danger"
          cancelText="Cancel"
          onConfirm={() => confirmDelete(dialog.campaign)}
        >
          <p className="text-sm">{`"${dialog.campaign.name}" will be deleted. This cannot be undone.`}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
