import { Button, SelectField, TextField } from '@console/shared/ui';
import { APPLET_LIMITS } from '@console/shared/contracts';

/**
 * The manifest address with its Check button, and the module select filled from what the manifest exposes
 * (spec section 2: the applet form validates the manifest address by fetching it from the gateway and shows
 * what it exposes).
 */
export function ManifestCheck({
  manifestUrl,
  module,
  choices,
  checked,
  checking,
  errors,
  disabled,
  onManifestUrl,
  onModule,
  onCheck,
}: {
  manifestUrl: string;
  module: string;
  choices: readonly string[];
  /** The manifest's name and exposes once checked for the current address. */
  checked: { name: string; exposes: readonly string[] } | null;
  checking: boolean;
  errors: { manifest_url?: string; module?: string };
  disabled: boolean;
  onManifestUrl: (value: string) => void;
  onModule: (value: string) => void;
  onCheck: () => void;
}) {
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-2">
        <TextField
          label="Manifest URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://applets.example.com/token-gate/mf-manifest.json"
          maxLength={APPLET_LIMITS.url}
          value={manifestUrl}
          error={errors.manifest_url}
          hint="The applet's Module Federation manifest (mf-manifest.json)."
          onChange={(event) => onManifestUrl(event.target.value)}
          containerClassName="min-w-0 flex-1"
          disabled={disabled}
        />
        <Button variant="secondary" className="mt-6" busy={checking} disabled={disabled} onClick={onCheck}>
          Check
        </Button>
      </div>
      {checked && (
        <p role="status" className="rounded-control bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {checked.exposes.length === 0
            ? `The manifest of ${checked.name} exposes no modules.`
            : `The manifest of ${checked.name} exposes ${checked.exposes.join(', ')}.`}
        </p>
      )}
      <SelectField
        label="Module"
        value={module}
        error={errors.module}
        disabled={disabled || choices.length === 0}
        onChange={(event) => onModule(event.target.value)}
      >
        {choices.length === 0 && <option value="">Check the manifest to choose a module</option>}
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
