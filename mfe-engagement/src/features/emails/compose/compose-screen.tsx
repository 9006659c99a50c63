import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@console/shared/router';
import { messageOf } from '@console/shared/api';
import { Button, Spinner, notify } from '@console/shared/ui';
import { CAMPAIGN_LIMITS, type AudienceSelection, type Campaign } from '@console/shared/contracts';
import {
  CAMPAIGNS_KEY,
  allListsQuery,
  allSegmentsQuery,
  campaignQuery,
  countAudience,
  createCampaign,
  fetchTemplateChoices,
} from '../api';
import {
  STATUS_LABELS,
  STEPS,
  STEP_LABELS,
  includesSomething,
  incompleteItems,
  isEditable,
  type ComposeDraft,
  type Step,
} from '../campaign-rules';
import { useDebouncedValue } from '../../segments/use-debounced-value';
import { CampaignStatusBadge } from '../status-badge';
import { EMAILS_PATH, composePath, logPath } from '../paths';
import { Stepper, stepPanelId, stepTabId } from './stepper';
import { draftOf, useCampaignAutosave, type CampaignSaveStatus } from './use-campaign-autosave';
import { AudienceStep } from './audience-step';
import { ContentStep } from './content-step';
import { SettingsStep } from './settings-step';
import { ReviewStep } from './review-step';

/** The audience count follows the pickers this long after the last change. */
export const COUNT_DEBOUNCE_MS = 500;

function SaveState({ status, onReload }: { status: CampaignSaveStatus; onReload: () => void }) {
  return (
    <div role="status" data-testid="save-status" data-state={status.kind} className="text-sm">
      {status.kind === 'saved' && <span className="text-emerald-800">Saved</span>}
      {status.kind === 'pending' && <span className="text-slate-600">Unsaved changes</span>}
      {status.kind === 'saving' && (
        <span className="flex items-center gap-1 text-slate-600">
          <Spinner className="h-3 w-3" decorative /> Saving…
        </span>
      )}
      {status.kind === 'failed' && <span className="text-red-700">Not saved: {status.message}</span>}
      {status.kind === 'conflict' && (
        <span className="flex items-center gap-2 text-red-700">
          {status.message}
          <Button size="sm" variant="secondary" onClick={onReload}>
            Reload
          </Button>
        </span>
      )}
    </div>
  );
}

/** The name, editable in place (saved with the rest). */
function NameField({ value, onChange, readOnly }: { value: string; onChange: (v: string) => void; readOnly: boolean }) {
  return (
    <input
      aria-label="E-mail name"
      value={value}
      maxLength={CAMPAIGN_LIMITS.name}
      readOnly={readOnly}
      onChange={(event) => onChange(event.target.value)}
      className="w-full max-w-xs truncate rounded-control border-0 bg-transparent px-2 py-1 text-base font-semibold text-slate-900 ring-inset hover:ring-1 hover:ring-slate-300 focus:ring-2 focus:ring-brand-600 focus:outline-none"
    />
  );
}

/**
 * Compose (spec section 2, engagement/emails/compose/:id?, minimal layout): a top bar with the name,
 * the steps, the autosave state and Close; then Audience, Content, Settings, Review. Every change is
 * saved a moment later. A campaign that is no longer a draft or scheduled opens read-only.
 */
export function ComposeEditor({ campaign: loaded }: { campaign: Campaign }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [campaign, setCampaign] = useState(loaded);
  const [draft, setDraft] = useState<ComposeDraft>(() => draftOf(loaded));
  const [step, setStep] = useState<Step>('audience');
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const readOnly = !isEditable(campaign.status);

  const autosave = useCampaignAutosave({
    campaignId: campaign._id,
    version: loaded.version,
    loaded: draftOf(loaded),
    read: () => draftRef.current,
    onSaved: (saved) => {
      setCampaign(saved);
      client.setQueryData(campaignQuery(saved._id).queryKey, saved);
    },
  });

  // The ref is updated at once so a save right after a change (e.g. before the designer opens) has it.
  const update = (patch: Partial<ComposeDraft>) => {
    if (readOnly) return;
    draftRef.current = { ...draftRef.current, ...patch };
    setDraft(draftRef.current);
    autosave.changed();
  };

  const audience = useDebouncedValue<AudienceSelection>(draft.audience, COUNT_DEBOUNCE_MS);
  const count = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'audience', audience],
    queryFn: () => countAudience(audience),
    enabled: includesSomething(audience),
    staleTime: 10_000,
    retry: false,
  });
  const countData = includesSomething(audience) ? count.data : undefined;

  const issues = incompleteItems(draft, countData);
  const incomplete = useMemo(() => new Set<Step>(issues.map((i) => i.step)), [issues]);
  const fieldErrors = useMemo(() => {
    const out: Record<string, string> = {};
    if (autosave.status.kind === 'failed') {
      for (const [field, messages] of Object.entries(autosave.status.errors)) if (messages[0]) out[field] = messages[0];
    }
    return out;
  }, [autosave.status]);

  // Names for the review: the pickers' queries and the chosen template.
  const lists = useQuery(allListsQuery());
  const segments = useQuery(allSegmentsQuery());
  const templates = useQuery({
    queryKey: ['templates', 'list', 'compose', ''],
    queryFn: () =>
      fetchTemplateChoices({ page: 1, perPage: 24, sortField: 'updated_at', sortOrder: 'desc', searchString: '' }),
  });
  const nameOf = (ids: string[], records: { _id: string; name: string }[] | undefined) =>
    ids.map((id) => records?.find((r) => r._id === id)?.name ?? 'Unknown');
  const audienceNames = {
    include: [
      ...nameOf(draft.audience.include_lists, lists.data?.records),
      ...nameOf(draft.audience.include_segments, segments.data?.records),
    ],
    exclude: [
      ...nameOf(draft.audience.exclude_lists, lists.data?.records),
      ...nameOf(draft.audience.exclude_segments, segments.data?.records),
    ],
  };
  const templateName = templates.data?.records.find((t) => t._id === draft.template_id)?.name ?? null;

  const reload = async () => {
    const fresh = await client.fetchQuery({ ...campaignQuery(campaign._id), staleTime: 0 });
    // A new editor with the fresh campaign (the autosave starts from its version).
    void navigate(composePath(fresh._id), { replace: true, state: { reload: Date.now() } });
  };

  const close = async () => {
    await autosave.flush();
    void navigate(EMAILS_PATH);
  };

  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <header className="sticky top-0 z-20 flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-2">
        <NameField value={draft.name} readOnly={readOnly} onChange={(name) => update({ name })} />
        <CampaignStatusBadge status={campaign.status} />
        <nav aria-label="Compose steps" className="mx-auto">
          <Stepper current={step} onChange={setStep} incomplete={readOnly ? new Set() : incomplete} />
        </nav>
        {!readOnly && <SaveState status={autosave.status} onReload={() => void reload()} />}
        <Button variant="secondary" onClick={() => void close()}>
          Close
        </Button>
      </header>
      {readOnly && (
        <p role="note" className="border-b border-sky-200 bg-sky-50 px-4 py-2 text-sm text-sky-900">
          This e-mail is {STATUS_LABELS[campaign.status].toLowerCase()}: it can no longer be changed.{' '}
          <Link to={logPath(campaign._id)} className="font-medium underline">
            View the delivery log
          </Link>
        </p>
      )}
      <main className="mx-auto w-full max-w-6xl flex-1 p-6">
        <h1 className="sr-only">Compose e-mail</h1>
        {STEPS.map((s) => (
          <div
            key={s}
            role="tabpanel"
            id={stepPanelId(s)}
            aria-labelledby={stepTabId(s)}
            hidden={s !== step}
            tabIndex={0}
            className="focus:outline-none"
          >
            {s === step && s === 'audience' && (
              <AudienceStep
                audience={draft.audience}
                onChange={(next) => update({ audience: next })}
                count={countData}
                counting={count.isFetching || audience !== draft.audience}
                countError={count.isError ? messageOf(count.error, 'The audience could not be counted.') : null}
                readOnly={readOnly}
              />
            )}
            {s === step && s === 'content' && (
              <ContentStep
                value={draft}
                onChange={update}
                errors={fieldErrors}
                readOnly={readOnly}
                beforeLeave={autosave.flush}
              />
            )}
            {s === step && s === 'settings' && (
              <SettingsStep value={draft} onChange={update} errors={fieldErrors} readOnly={readOnly} />
            )}
            {s === step && s === 'review' && (
              <ReviewStep
                campaign={campaign}
                draft={draft}
                count={countData}
                issues={issues}
                templateName={templateName}
                audienceNames={audienceNames}
                readOnly={readOnly}
                onEdit={setStep}
                ensureSaved={autosave.flush}
                onCampaign={(next) => {
                  setCampaign(next);
                  autosave.rebase(next, draftRef.current);
                  void client.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
                }}
              />
            )}
          </div>
        ))}
        {step !== 'review' && (
          <div className="mt-8 flex justify-end">
            <Button onClick={() => setStep(STEPS[STEPS.indexOf(step) + 1] ?? 'review')}>
              Next: {STEP_LABELS[STEPS[STEPS.indexOf(step) + 1] ?? 'review']}
            </Button>
          </div>
        )}
      </main>
    </div>
  );
}

/** Compose without an id: name the e-mail, create the draft, then compose it. */
function NewEmail() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async () => {
    if (!name.trim()) {
      setError('Name the e-mail.');
      return;
    }
    setBusy(true);
    try {
      const created = await createCampaign({ name: name.trim() });
      await client.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
      void navigate(composePath(created._id), { replace: true });
    } catch (failure) {
      setError(messageOf(failure, 'The e-mail could not be created. Please try again.'));
      setBusy(false);
    }
  };
  return (
    <main className="mx-auto max-w-md p-8">
      <h1 className="text-xl font-semibold text-slate-900">New e-mail</h1>
      <form
        noValidate
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <label className="block text-sm font-medium text-slate-800" htmlFor="new-email-name">
          Name
        </label>
        <input
          id="new-email-name"
          value={name}
          maxLength={CAMPAIGN_LIMITS.name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'new-email-error' : undefined}
          onChange={(event) => setName(event.target.value)}
          className="block w-full rounded-control border-0 px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600"
        />
        {error && (
          <p id="new-email-error" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex gap-3">
          <Button type="submit" busy={busy}>
            Create and compose
          </Button>
          <Link to={EMAILS_PATH} className="self-center text-sm text-brand-700 underline">
            Back to e-mails
          </Link>
        </div>
      </form>
    </main>
  );
}

/** Loads the campaign, then the editor (one editor per loaded version, so a reload starts afresh). */
export function ComposeScreen({ campaignId, reloadKey }: { campaignId: string | null; reloadKey?: unknown }) {
  const campaign = useQuery({ ...campaignQuery(campaignId ?? ''), enabled: campaignId !== null });
  useEffect(() => {
    if (campaign.isError) notify.error(messageOf(campaign.error, 'The e-mail could not be loaded.'));
  }, [campaign.isError, campaign.error]);
  if (campaignId === null) return <NewEmail />;
  if (campaign.isPending)
    return (
      <p className="flex items-center gap-2 p-8 text-sm text-slate-600">
        <Spinner className="h-4 w-4" decorative /> Loading the e-mail…
      </p>
    );
  if (campaign.isError)
    return (
      <main className="p-8">
        <h1 className="text-xl font-semibold text-slate-900">E-mail not found</h1>
        <p className="mt-2 text-sm text-slate-700">{messageOf(campaign.error, 'The e-mail could not be loaded.')}</p>
        <Link to={EMAILS_PATH} className="mt-4 inline-block text-brand-700 underline">
          Back to e-mails
        </Link>
      </main>
    );
  return <ComposeEditor key={`${campaign.data._id}:${String(reloadKey ?? '')}`} campaign={campaign.data} />;
}
