/**
 * MJML as GrapesJS can read it. The editor parses markup as HTML, where `<mj-image ... />` is not a
 * closed element (only HTML's own void elements close themselves): the elements after it would become
 * its children. MJML allows the short form anywhere (the starters use it in `mj-attributes`), so every
 * self-closed `mj-*` element is written out with its end tag before the editor reads it.
 */
export function expandSelfClosing(mjml: string): string {
  return mjml.replace(
    /<(mj-[a-z0-9-]+)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/>/gi,
    '<$1$2></$1>',
  );
}

/** An attribute value for MJML written between double quotes. */
export function escapeAttribute(value: string): string {
  return value.replace(/"/g, '&quot;');
}
