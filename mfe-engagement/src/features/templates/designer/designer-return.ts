/**
 * Where the designer's back link leads (spec section 2: engagement/templates and
 * engagement/emails/compose). Opened from a campaign's content step ("Edit the design", on a copy)
 * it returns to that e-mail's compose screen; otherwise to the templates. Only a compose path of
 * this console is accepted from the address (`?from=`): never another site or another screen.
 */
export interface DesignerReturn {
  to: string;
  label: string;
}

const COMPOSE_PATH = /^\/engagement\/emails\/compose\/[A-Za-z0-9_-]+$/;

export const TEMPLATES_RETURN: DesignerReturn = { to: '/engagement/templates', label: 'Templates' };

/** The designer's address for a template, returning to `from` (a compose path) when given. */
export function designerHref(templateId: string, from?: string): string {
  const path = `/engagement/templates/${encodeURIComponent(templateId)}`;
  return from && COMPOSE_PATH.test(from) ? `${path}?from=${encodeURIComponent(from)}` : path;
}

/** The back link for the designer's address query (`location.search`). */
export function designerReturn(search: string): DesignerReturn {
  const from = new URLSearchParams(search).get('from');
  return from && COMPOSE_PATH.test(from) ? { to: from, label: 'E-mail' } : TEMPLATES_RETURN;
}
