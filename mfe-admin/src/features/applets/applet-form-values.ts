/** The applet form's values (create and edit): values, client checks from the contract, the module choices. Pure. */
import { AppletBody, type Applet } from '@console/shared/contracts';

export interface AppletFormValues {
  name: string;
  slug: string;
  description: string;
  icon: string;
  manifest_url: string;
  module: string;
  plan_ids: string[];
  enabled: boolean;
}

export const EMPTY_APPLET_FORM: AppletFormValues = {
  name: '',
  slug: '',
  description: '',
  icon: '',
  manifest_url: '',
  module: '',
  plan_ids: [],
  enabled: true,
};

export const APPLET_FORM_FIELDS = [
  'name',
  'slug',
  'description',
  'icon',
  'manifest_url',
  'module',
  'plan_ids',
  'enabled',
] as const;
export type AppletFormField = (typeof APPLET_FORM_FIELDS)[number];
export type AppletFieldErrors = Partial<Record<AppletFormField, string>>;

export function appletFormValues(applet: Applet | null): AppletFormValues {
  if (!applet) return EMPTY_APPLET_FORM;
  return {
    name: applet.name,
    slug: applet.slug,
    description: applet.description,
    icon: applet.icon ?? '',
    manifest_url: applet.manifest_url,
    module: applet.module,
    plan_ids: [...applet.plan_ids],
    enabled: applet.enabled,
  };
}

function isFormField(field: string): field is AppletFormField {
  return (APPLET_FORM_FIELDS as readonly string[]).includes(field);
}

/** The body to send, or the contract's first message per field. */
export function parseAppletForm(
  values: AppletFormValues,
): { ok: true; body: AppletBody } | { ok: false; errors: AppletFieldErrors } {
  const parsed = AppletBody.safeParse({ ...values, icon: values.icon.trim() || null });
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: AppletFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (isFormField(field)) errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * The module select's choices: what the manifest exposes once checked; before that, the stored module (so an
 * applet being edited shows its own).
 */
export function moduleChoices(exposes: readonly string[] | null, current: string): string[] {
  if (exposes) return [...exposes];
  return current ? [current] : [];
}

/** The module to select after a check: the current one when still exposed, else the first exposed. */
export function moduleAfterCheck(exposes: readonly string[], current: string): string {
  return exposes.includes(current) ? current : (exposes[0] ?? '');
}

/** Plans ticked: toggles one id. */
export function togglePlan(ids: readonly string[], id: string, on: boolean): string[] {
  const rest = ids.filter((other) => other !== id);
  return on ? [...rest, id] : rest;
}
