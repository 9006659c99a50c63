import { useQuery } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import { fetchAllApplets, tenantKeys } from './api';

/**
 * The applets a tenant gets beyond its plan's, chosen from the full fetch (GET /v1/applets, perPage
 * 1000, spec section 7). A failed fetch shows its error in place of the choices.
 */
export function AppletPicker({
  value,
  onChange,
  error,
  disabled,
}: {
  value: readonly string[];
  onChange: (next: string[]) => void;
  error?: string;
  disabled?: boolean;
}) {
  const applets = useQuery({ queryKey: tenantKeys.applets, queryFn: fetchAllApplets });
  const toggle = (id: string, on: boolean) => onChange(on ? [...value, id] : value.filter((v) => v !== id));
  return (
    <fieldset>
      <legend className="mb-1 block text-sm font-medium text-slate-800">Enabled applets</legend>
      {applets.isPending && <p className="text-sm text-slate-500">Loading applets…</p>}
      {applets.isError && (
        <p role="alert" className="text-sm text-red-700">
          {messageOf(applets.error, 'The applets could not be loaded.')}
        </p>
      )}
      {applets.data?.length === 0 && <p className="text-sm text-slate-500">No applets yet.</p>}
      {applets.data && applets.data.length > 0 && (
        <ul className="space-y-1">
          {applets.data.map((applet) => (
            <li key={applet._id}>
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={value.includes(applet._id)}
                  disabled={disabled}
                  onChange={(event) => toggle(applet._id, event.target.checked)}
                />
                {applet.name}
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="mt-1 text-xs text-red-700">{error}</p>}
    </fieldset>
  );
}
