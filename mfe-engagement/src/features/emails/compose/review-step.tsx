import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@console/shared/router';
import { ApiError, messageOf } from '@console/shared/api';
import { Button, Spinner, notify } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import { consoleStore, useConsole } from '@console/shared/session';
import { defaultScheduleZone, formatCount } from '@console/shared/format';
import { CAMPAIGN_LIMITS, type AudienceCount, type Campaign } from '@console/shared/contracts';
import { previewCampaign, runCampaignAction, sendCampaign, sendTestCampaign } from '../api';
import {
  STEP_LABELS,
  audienceLines,
  formatSchedule,
  issuesFromErrors,
  receiveText,
  type ComposeDraft,
  type Issue,
  type Step,
} from '../campaign-rules';
import { PreviewContactPicker, type PreviewContact } from '../../templates/designer/preview-contact';
import { PREVIEW_WIDTHS } from '../../templates/designer/preview-dialog';
import { TestSendDialog } from '../../templates/designer/test-send-dialog';
import { ScheduleDialog } from './schedule-dialog';
import { logPath } from '../paths';

type Dialogs = 'none' | 'test' | 'send' | 'schedule';
type Device = keyof typeof PREVIEW_WIDTHS;

/** A 402 (over the plan's e-mail volume) or another refusal of the send. */
type SendError = { message: string; upgrade: boolean; issues: Issue[] };

function sendErrorOf(error: unknown): SendError {
  if (error instanceof ApiError && error.status === 402) {
    return { message: error.message || 'This send is more than your plan has left.', upgrade: true, issues: [] };
  }
  if (error instanceof ApiError && error.status === 400 && error.body.errors) {
    return {
      message: error.message || 'The e-mail is not complete.',
      upgrade: false,
      issues: issuesFromErrors(error.body.errors),
    };
  }
  return { message: messageOf(error, 'The e-mail could not be sent. Please try again.'), upgrade: false, issues: [] };
}

function Summary({
  step,
  onEdit,
  readOnly,
  children,
}: {
  step: Exclude<Step, 'review'>;
  onEdit: (step: Step) => void;
  readOnly: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`review-${step}`} className="rounded-panel border border-slate-200 bg-white p-4">
      <div className="flex items-center justify-between">
        <h2 id={`review-${step}`} className="text-sm font-semibold text-slate-900">
          {STEP_LABELS[step]}
        </h2>
        {!readOnly && (
          <Button variant="link" aria-label={`Edit ${STEP_LABELS[step].toLowerCase()}`} onClick={() => onEdit(step)}>
            Edit
          </Button>
        )}
      </div>
      <div className="mt-2 text-sm text-slate-700">{children}</div>
    </section>
  );
}

/**
 * Review: each step summed up with a way back to it, what is missing, a preview as a contact
 * (sandboxed, no scripts), a test send, then send now or schedule (or change or cancel a schedule).
 */
export function ReviewStep({
  campaign,
  draft,
  count,
  issues,
  templateName,
  audienceNames,
  readOnly,
  onEdit,
  ensureSaved,
  onCampaign,
}: {
  campaign: Campaign;
  draft: ComposeDraft;
  count: AudienceCount | undefined;
  issues: Issue[];
  templateName: string | null;
  audienceNames: { include: string[]; exclude: string[] };
  readOnly: boolean;
  onEdit: (step: Step) => void;
  ensureSaved: () => Promise<boolean>;
  onCampaign: (next: Campaign) => void;
}) {
  const navigate = useNavigate();
  // The session user's time zone (their own, else the community's): where a new schedule starts.
  const userZone = useConsole((s) => s.user?.time_zone ?? null);
  const [dialog, setDialog] = useState<Dialogs>('none');
  const [seq, setSeq] = useState(0);
  const [contact, setContact] = useState<PreviewContact | null>(null);
  const [device, setDevice] = useState<Device>('desktop');
  const [sendError, setSendError] = useState<SendError | null>(null);
  const [unscheduling, setUnscheduling] = useState(false);
  const open = (next: Dialogs) => {
    setSeq((n) => n + 1);
    setDialog(next);
  };
  const close = () => setDialog('none');

  const preview = useQuery({
    queryKey: [
      'campaigns',
      'preview',
      campaign._id,
      contact?.id ?? null,
      draft.template_id,
      draft.subject,
      draft.preview_text,
    ],
    queryFn: async () => {
      await ensureSaved();
      return previewCampaign(campaign._id, contact?.id ?? null);
    },
    enabled: draft.template_id !== null,
    gcTime: 0,
    retry: false,
  });

  const allIssues = [...issues, ...(sendError?.issues ?? [])].filter(
    (issue, index, list) => list.findIndex((i) => i.field === issue.field) === index,
  );
  const canSend = !readOnly && allIssues.length === 0 && campaign.status === 'draft';
  const reachable = count?.reachable ?? 0;

  const send = async (schedule?: { at: string; zone: string }) => {
    setSendError(null);
    if (!(await ensureSaved()))
      throw new Error('The latest changes are not saved yet. Fix what compose reports, then try again.');
    try {
      // Changing a schedule: back to a draft, then scheduled again at the new time.
      if (schedule && campaign.status === 'scheduled') onCampaign(await runCampaignAction(campaign._id, 'unschedule'));
      const sent = await sendCampaign(
        campaign._id,
        schedule ? { scheduled_at: schedule.at, time_zone: schedule.zone } : {},
      );
      onCampaign(sent);
      close();
      if (schedule) notify.success(`Scheduled for ${formatSchedule(schedule.at, schedule.zone)}.`);
      else {
        notify.success('Sending started.');
        void navigate(logPath(campaign._id));
      }
    } catch (error) {
      const problem = sendErrorOf(error);
      setSendError(problem);
      close();
    }
  };

  const unschedule = async () => {
    setUnscheduling(true);
    try {
      onCampaign(await runCampaignAction(campaign._id, 'unschedule'));
      notify.success('Unscheduled: the e-mail is a draft again.');
    } catch (error) {
      notify.error(messageOf(error, 'The schedule could not be cancelled.'));
    } finally {
      setUnscheduling(false);
    }
  };

  const lines = count ? audienceLines(count) : null;

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
      <div className="space-y-4">
        {allIssues.length > 0 && !readOnly && (
          <section
            aria-labelledby="review-missing"
            className="rounded-panel border border-amber-300 bg-amber-50 p-4"
            data-testid="incomplete"
          >
            <h2 id="review-missing" className="text-sm font-semibold text-amber-900">
              Before you send
            </h2>
            <ul className="mt-2 space-y-1 text-sm text-amber-900">
              {allIssues.map((issue) => (
                <li key={issue.field} className="flex items-center justify-between gap-3">
                  <span>{issue.message}</span>
                  <Button variant="link" onClick={() => onEdit(issue.step)}>
                    Go to {STEP_LABELS[issue.step].toLowerCase()}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        )}
        <Summary step="audience" onEdit={onEdit} readOnly={readOnly}>
          <p>
            <span className="font-medium">Send to: </span>
            {audienceNames.include.length ? audienceNames.include.join(', ') : 'nobody chosen yet'}
          </p>
          {audienceNames.exclude.length > 0 && (
            <p>
              <span className="font-medium">Leave out: </span>
              {audienceNames.exclude.join(', ')}
            </p>
          )}
          {count && lines && (
            <div className="mt-2">
              <p className="font-medium text-slate-900">{receiveText(count.reachable)}</p>
              <p>{lines.reachable.map((l) => `${l.label}: ${formatCount(l.value)}`).join(' · ')}</p>
              {lines.leftOut.length > 0 && (
                <p>
                  Left out: {lines.leftOut.map((l) => `${l.label.toLowerCase()} ${formatCount(l.value)}`).join(', ')}
                </p>
              )}
            </div>
          )}
        </Summary>
        <Summary step="content" onEdit={onEdit} readOnly={readOnly}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="font-medium">Template</dt>
            <dd>{templateName ?? (draft.template_id ? 'Chosen' : 'None')}</dd>
            <dt className="font-medium">Subject</dt>
            <dd>{draft.subject || 'None'}</dd>
            <dt className="font-medium">Preview text</dt>
            <dd>{draft.preview_text || 'None'}</dd>
          </dl>
        </Summary>
        <Summary step="settings" onEdit={onEdit} readOnly={readOnly}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="font-medium">From</dt>
            <dd>
              {draft.from_name || 'Your community'} {`<${draft.from_email || 'platform address'}>`}
            </dd>
            <dt className="font-medium">Reply-to</dt>
            <dd>{draft.reply_to || 'The from address'}</dd>
            <dt className="font-medium">Tracking</dt>
            <dd>
              Opens {draft.track_opens ? 'on' : 'off'}, clicks {draft.track_clicks ? 'on' : 'off'}
            </dd>
            <dt className="font-medium">UTM</dt>
            <dd>
              {Object.entries(draft.utm)
                .filter(([, v]) => v)
                .map(([k, v]) => `utm_${k}=${v}`)
                .join(', ') || 'None'}
            </dd>
          </dl>
        </Summary>

        {!readOnly && (
          <section
            aria-labelledby="review-send"
            className="space-y-3 rounded-panel border border-slate-200 bg-white p-4"
          >
            <h2 id="review-send" className="text-sm font-semibold text-slate-900">
              Send
            </h2>
            {sendError && (
              <div role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
                <p>{sendError.message}</p>
                {sendError.upgrade && (
                  <Button className="mt-2" size="sm" onClick={() => consoleStore.getState().openUpgrade(null)}>
                    Upgrade your plan
                  </Button>
                )}
              </div>
            )}
            {campaign.status === 'scheduled' && campaign.scheduled_at ? (
              <div className="space-y-2">
                <p className="text-sm text-slate-800" data-testid="schedule">
                  Scheduled for {formatSchedule(campaign.scheduled_at, campaign.time_zone)}.
                </p>
                <div className="flex gap-3">
                  <Button variant="secondary" onClick={() => open('schedule')}>
                    Change
                  </Button>
                  <Button variant="secondary" busy={unscheduling} onClick={() => void unschedule()}>
                    Unschedule
                  </Button>
                </div>
              </div>
            ) : (
              <div className="flex flex-wrap gap-3">
                <Button variant="secondary" onClick={() => open('test')}>
                  Send a test
                </Button>
                <Button variant="secondary" disabled={!canSend} onClick={() => open('schedule')}>
                  Schedule
                </Button>
                <Button disabled={!canSend} onClick={() => open('send')}>
                  Send now
                </Button>
              </div>
            )}
          </section>
        )}
        {readOnly && (
          <p className="text-sm">
            <Link to={logPath(campaign._id)} className="text-brand-700 underline">
              View the delivery log
            </Link>
          </p>
        )}
      </div>

      <section
        aria-labelledby="review-preview"
        className="space-y-3 rounded-panel border border-slate-200 bg-white p-4"
      >
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="review-preview" className="text-sm font-semibold text-slate-900">
            Preview
          </h2>
          <div role="group" aria-label="Width" className="inline-flex rounded-control ring-1 ring-slate-300">
            {(['desktop', 'mobile'] as const).map((d) => (
              <button
                key={d}
                type="button"
                aria-pressed={device === d}
                onClick={() => setDevice(d)}
                className={`px-3 py-1.5 text-sm font-medium first:rounded-l-control last:rounded-r-control focus-visible:outline-2 focus-visible:outline-brand-600 ${
                  device === d ? 'bg-brand-600 text-white' : 'bg-white text-slate-800 hover:bg-slate-50'
                }`}
              >
                {d === 'desktop' ? 'Desktop' : 'Mobile'}
              </button>
            ))}
          </div>
        </div>
        <PreviewContactPicker value={contact} onChange={setContact} />
        {!draft.template_id && <p className="text-sm text-slate-600">Choose a template to see a preview.</p>}
        {preview.isFetching && (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="h-4 w-4" decorative /> Rendering…
          </p>
        )}
        {preview.isError && (
          <p role="alert" className="text-sm text-red-700">
            {preview.error.message}
          </p>
        )}
        {preview.data && (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="font-medium text-slate-800">Subject</dt>
              <dd className="text-slate-900">{preview.data.subject || '(no subject)'}</dd>
              <dt className="font-medium text-slate-800">Preview text</dt>
              <dd className="text-slate-700">{preview.data.preview_text || '(none)'}</dd>
            </dl>
            <div className="flex justify-center overflow-x-auto rounded-control bg-slate-100 p-3">
              <iframe
                sandbox=""
                srcDoc={preview.data.html}
                title={`E-mail preview, ${device} width`}
                data-device={device}
                className="h-[70vh] max-w-full border-0 bg-white shadow-sm"
                style={{ width: PREVIEW_WIDTHS[device] }}
              />
            </div>
          </>
        )}
      </section>

      {dialog === 'test' && (
        <TestSendDialog
          key={seq}
          open
          onClose={close}
          ensureSaved={ensureSaved}
          unsavedMessage="The latest changes are not saved yet. Fix what compose reports, then send again."
          send={(recipients) => sendTestCampaign(campaign._id, recipients, contact?.id ?? null)}
          maxRecipients={CAMPAIGN_LIMITS.testRecipients}
          maxLength={CAMPAIGN_LIMITS.testRecipients * (CAMPAIGN_LIMITS.address + 2)}
        />
      )}
      {dialog === 'schedule' && (
        <ScheduleDialog
          key={seq}
          open
          onClose={close}
          defaultZone={defaultScheduleZone(userZone)}
          initial={
            campaign.status === 'scheduled' && campaign.scheduled_at
              ? { at: campaign.scheduled_at, timeZone: campaign.time_zone }
              : null
          }
          onSchedule={(at, zone) => send({ at, zone })}
        />
      )}
      {dialog === 'send' && (
        <ConfirmDialog
          key={seq}
          open
          onClose={close}
          title="Send this e-mail now?"
          cancelText="Cancel"
          onConfirm={() => send()}
          onError={(error) => setSendError(sendErrorOf(error))}
        >
          <p className="text-sm">
            {receiveText(reachable)} Sending starts at once and cannot be undone, only paused or cancelled.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
