import { useQuery } from '@tanstack/react-query';
import { Link } from '@console/shared/router';
import { Switch, TextField } from '@console/shared/ui';
import { sendersQuery } from '../api';
import { CAMPAIGN_LIMITS } from '@console/shared/contracts';
import type { ComposeDraft } from '../campaign-rules';

type Fields = Pick<ComposeDraft, 'from_name' | 'from_email' | 'reply_to' | 'track_opens' | 'track_clicks' | 'utm'>;

const UTM_FIELDS = [
  ['source', 'Source', 'newsletter'],
  ['medium', 'Medium', 'email'],
  ['campaign', 'Campaign', 'spring-drop'],
  ['term', 'Term', ''],
  ['content', 'Content', ''],
] as const;

/**
 * Which From addresses may be used (domains/senders.ts on the gateway: the platform's address, or any
 * address on a verified domain of the community), with the way to Custom Domains.
 */
function SenderHint() {
  const senders = useQuery(sendersQuery());
  const platform = senders.data?.platform_address ?? "the platform's sending address";
  const domains = senders.data?.domains ?? [];
  return (
    <>
      {domains.length > 0
        ? `Empty: ${platform}. Or any address at ${domains.join(', ')} (your verified domains).`
        : `Empty: ${platform}. To send from your own domain, verify it first in `}
      {domains.length === 0 && (
        <Link className="underline" to="/account/custom-domains">
          Custom Domains
        </Link>
      )}
      {domains.length === 0 && '.'}
    </>
  );
}

/** Settings: sender, reply-to, tracking and the UTM parameters added to every link. */
export function SettingsStep({
  value,
  onChange,
  errors,
  readOnly,
}: {
  value: Fields;
  onChange: (next: Partial<Fields>) => void;
  errors: Record<string, string>;
  readOnly: boolean;
}) {
  return (
    <fieldset disabled={readOnly} className="max-w-2xl space-y-8">
      <legend className="sr-only">Settings</legend>
      <section className="space-y-4">
        <h2 className="text-base font-semibold text-slate-900">Sender</h2>
        <TextField
          label="From name"
          hint="Who the e-mail is from, as people see it. Empty: your community's name."
          value={value.from_name}
          maxLength={CAMPAIGN_LIMITS.fromName}
          error={errors.from_name}
          onChange={(event) => onChange({ from_name: event.target.value })}
        />
        <TextField
          label="From address"
          type="email"
          hint={<SenderHint />}
          value={value.from_email}
          maxLength={CAMPAIGN_LIMITS.address}
          error={errors.from_email}
          onChange={(event) => onChange({ from_email: event.target.value })}
        />
        <TextField
          label="Reply-to address"
          type="email"
          hint="Where replies go. Empty: the from address."
          value={value.reply_to}
          maxLength={CAMPAIGN_LIMITS.address}
          error={errors.reply_to}
          onChange={(event) => onChange({ reply_to: event.target.value })}
        />
      </section>
      <section className="space-y-4">
        <h2 className="text-base font-semibold text-slate-900">Tracking</h2>
        <Switch
          label="Track opens"
          hint="Adds an invisible image that tells you who opened the e-mail."
          checked={value.track_opens}
          onChange={(track_opens) => onChange({ track_opens })}
        />
        <Switch
          label="Track clicks"
          hint="Sends links through a redirect that counts clicks."
          checked={value.track_clicks}
          onChange={(track_clicks) => onChange({ track_clicks })}
        />
      </section>
      <section className="space-y-4">
        <h2 className="text-base font-semibold text-slate-900">UTM parameters</h2>
        <p className="text-sm text-slate-600">Added to every link, so your analytics know where visits came from.</p>
        <div className="grid gap-4 sm:grid-cols-2">
          {UTM_FIELDS.map(([key, label, placeholder]) => (
            <TextField
              key={key}
              label={`UTM ${label.toLowerCase()}`}
              placeholder={placeholder}
              value={value.utm[key]}
              maxLength={CAMPAIGN_LIMITS.utmValue}
              error={errors[`utm.${key}`] ?? errors.utm}
              onChange={(event) => onChange({ utm: { ...value.utm, [key]: event.target.value } })}
            />
          ))}
        </div>
      </section>
    </fieldset>
  );
}
