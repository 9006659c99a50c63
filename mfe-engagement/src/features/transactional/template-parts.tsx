import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, notify, Switch } from '@console/shared/ui';
import { messageOf } from '@console/shared/api';
import type { TransactionalSettings } from '@console/shared/contracts';
import { TRANSACTIONAL_KEY, saveTransactionalSettings } from './api';
import type { Snippets } from './snippets';

const LANGUAGES: { key: keyof Snippets; label: string }[] = [
  { key: 'curl', label: 'curl' },
  { key: 'javascript', label: 'JavaScript (fetch)' },
  { key: 'python', label: 'Python (requests)' },
];

/** The snippets that send the template, one tab per language, each with a copy button. */
export function SnippetsPanel({ snippets }: { snippets: Snippets }) {
  const [chosen, setChosen] = useState<keyof Snippets>('curl');
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippets[chosen]);
      notify.success('Copied to clipboard.');
    } catch {
      notify.error('Could not copy. Select the code and press Ctrl+C to copy it.');
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-panel border border-slate-200 bg-white p-4">
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        Send it from your app
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Set CONSOLE_API_KEY to an API key with the sending scope (API Access), and fill in the data.
      </p>
      <div role="tablist" aria-label="Language" className="mt-3 flex gap-2">
        {LANGUAGES.map((l) => (
          <button
            key={l.key}
            type="button"
            role="tab"
            id={`${id}-${l.key}`}
            aria-selected={chosen === l.key}
            aria-controls={`${id}-panel`}
            onClick={() => setChosen(l.key)}
            className={`rounded-control px-3 py-1 text-sm ${chosen === l.key ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-800'}`}
          >
            {l.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${chosen}`} className="mt-3">
        <pre
          className="max-h-96 overflow-auto rounded-control bg-slate-900 p-3 text-xs text-slate-100"
          data-testid="snippet"
        >
          <code>{snippets[chosen]}</code>
        </pre>
        <Button variant="secondary" className="mt-2" onClick={() => void copy()}>
          Copy code
        </Button>
      </div>
    </section>
  );
}

/** The template's settings, saved with a toast. */
export function SettingsForm({ templateId, initial }: { templateId: string; initial: TransactionalSettings }) {
  const client = useQueryClient();
  const [settings, setSettings] = useState(initial);
  const [saving, setSaving] = useState(false);
  const set = (key: keyof TransactionalSettings) => (value: boolean) => setSettings((s) => ({ ...s, [key]: value }));
  const save = async () => {
    setSaving(true);
    try {
      await saveTransactionalSettings(templateId, settings);
      notify.success('Settings saved.');
      await client.invalidateQueries({ queryKey: [...TRANSACTIONAL_KEY] });
    } catch (error) {
      notify.error(messageOf(error, 'The settings could not be saved.'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      aria-label="Settings"
      className="space-y-3 rounded-panel border border-slate-200 bg-white p-4"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2 className="text-base font-semibold text-slate-900">Settings</h2>
      <Switch
        label="Send to unsubscribed contacts"
        hint="On for receipts and security notices; off for notices people may opt out of."
        checked={settings.send_to_unsubscribed}
        onChange={set('send_to_unsubscribed')}
      />
      <Switch
        label="Track opens"
        hint="Adds an invisible image that records when the e-mail is opened."
        checked={settings.track_opens}
        onChange={set('track_opens')}
      />
      <Switch
        label="Track clicks"
        hint="Links go through the platform to record clicks."
        checked={settings.track_clicks}
        onChange={set('track_clicks')}
      />
      <Button type="submit" busy={saving}>
        Save settings
      </Button>
    </form>
  );
}
