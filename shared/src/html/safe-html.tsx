import { useMemo, type ComponentPropsWithRef } from 'react';
import { sanitizeHtml } from './sanitize';

export interface SafeHtmlProps extends Omit<ComponentPropsWithRef<'div'>, 'children' | 'dangerouslySetInnerHTML'> {
  /** Untrusted HTML: it is sanitised before it reaches the DOM. */
  html: string | null | undefined;
}

/** Renders an HTML body through `sanitizeHtml`. The only way UI code should inject HTML. */
export function SafeHtml({ html, ...rest }: SafeHtmlProps) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <div {...rest} dangerouslySetInnerHTML={{ __html: clean }} />;
}
