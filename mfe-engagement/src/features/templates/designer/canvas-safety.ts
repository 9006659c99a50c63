/**
 * What the designer's canvas may load of a template. The canvas is a frame of the console's own
 * origin, so a template's inline handlers (onerror=, onclick=...) and script URLs (javascript:,
 * vbscript:, data:text/html in href, src, action...) are removed before components are made from
 * it, whichever way it comes in: MJML (the parser's tree), or the designer's project data. The
 * console's CSP stays the second line, not the only one (docs/templates.md, "CSP").
 */

/** URL schemes that run code when followed or framed. */
const SCRIPT_URL = /^(?:javascript|vbscript|livescript):|^data:(?:text\/html|application\/xhtml\+xml)/;

/** A value as a browser reads a URL: without spaces, control characters and case. */
function normalisedUrl(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  return value.replace(/[\u0000-\u0020\u007f-\u00a0]+/g, '').toLowerCase();
}

/** True for an attribute the canvas must not load: an event handler, srcdoc, a refresh, or a script URL. */
export function isUnsafeAttribute(name: string, value: unknown): boolean {
  const key = name.trim().toLowerCase();
  if (key.startsWith('on') || key === 'srcdoc') return true;
  if (typeof value !== 'string') return false;
  const url = normalisedUrl(value);
  // A refresh (meta http-equiv) navigates by itself: the canvas must not.
  if (key === 'http-equiv' && url === 'refresh') return true;
  return SCRIPT_URL.test(url);
}

/** Elements that never reach the canvas. */
const UNSAFE_TAGS = new Set(['script', 'object', 'embed', 'base']);

/** An attributes object without its unsafe entries (the same object when none is unsafe). */
export function safeAttributes<T extends Record<string, unknown>>(attributes: T): T {
  const unsafe = Object.keys(attributes).filter((name) => isUnsafeAttribute(name, attributes[name]));
  if (unsafe.length === 0) return attributes;
  const copy: Record<string, unknown> = { ...attributes };
  for (const name of unsafe) delete copy[name];
  return copy as T;
}

/** Removes unsafe attributes and elements from a DOM element and everything inside it (in place). */
export function sanitizeElement(root: Element): void {
  for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
    if (el !== root && UNSAFE_TAGS.has(el.tagName.toLowerCase())) {
      el.remove();
      continue;
    }
    for (const attr of Array.from(el.attributes)) {
      if (isUnsafeAttribute(attr.name, attr.value)) el.removeAttribute(attr.name);
    }
  }
}

/** Markup made safe through an inert template element (nothing loads or runs while it is parsed). */
export function sanitizeMarkup(markup: string, doc: Document = document): string {
  if (!/[<&]/.test(markup)) return markup;
  const template = doc.createElement('template');
  template.innerHTML = markup;
  const holder = doc.createElement('div');
  holder.append(template.content);
  sanitizeElement(holder);
  return holder.innerHTML;
}

/** A node of GrapesJS's HTML parser tree (the `parse:html:root` event), as far as this reads it. */
export interface ParsedNodeLike {
  tagName?: string;
  attributes?: Record<string, unknown>;
  childNodes?: ParsedNodeLike[];
}

/** The parser's tree without unsafe attributes and elements (in place), before components are made. */
export function sanitizeParsedNode(node: ParsedNodeLike): void {
  if (node.attributes) {
    const safe = safeAttributes(node.attributes);
    if (safe !== node.attributes) node.attributes = safe;
  }
  if (!node.childNodes) return;
  node.childNodes = node.childNodes.filter((child) => !UNSAFE_TAGS.has((child.tagName ?? '').toLowerCase()));
  for (const child of node.childNodes) sanitizeParsedNode(child);
}

/** A component definition of project data, as far as this reads it. */
type ComponentDefinition = Record<string, unknown>;

function sanitizeComponent(def: unknown, doc: Document): unknown {
  if (typeof def === 'string') return sanitizeMarkup(def, doc);
  if (Array.isArray(def)) return def.map((item) => sanitizeComponent(item, doc));
  if (def === null || typeof def !== 'object') return def;
  const out: ComponentDefinition = { ...(def as ComponentDefinition) };
  if (UNSAFE_TAGS.has(String(out.tagName ?? '').toLowerCase())) return null;
  if (out.attributes !== null && typeof out.attributes === 'object' && !Array.isArray(out.attributes)) {
    out.attributes = safeAttributes(out.attributes as Record<string, unknown>);
  }
  // Set as HTML by their views: `content` by GrapesJS's, `markup` by the head parts (head-parts.ts).
  for (const key of ['content', 'markup'] as const) {
    if (typeof out[key] === 'string' && out.type !== 'textnode') out[key] = sanitizeMarkup(out[key], doc);
  }
  if (out.components !== undefined) {
    const children = sanitizeComponent(out.components, doc);
    out.components = Array.isArray(children) ? children.filter((c) => c !== null) : children;
  }
  return out;
}

/**
 * The designer's project data made safe (a copy): every component of every page and symbol. Project
 * data is loaded without the HTML parser, so nothing else would check its attributes, its `content`
 * (set as HTML by GrapesJS) or components given as HTML strings.
 */
export function sanitizeProject(project: Record<string, unknown>, doc: Document = document): Record<string, unknown> {
  const out: Record<string, unknown> = { ...project };
  if (Array.isArray(project.pages)) {
    out.pages = project.pages.map((page: unknown) => {
      if (page === null || typeof page !== 'object') return page;
      const p = { ...(page as Record<string, unknown>) };
      if (Array.isArray(p.frames)) {
        p.frames = p.frames.map((frame: unknown) => {
          if (frame === null || typeof frame !== 'object') return frame;
          const f = { ...(frame as Record<string, unknown>) };
          if (f.component !== undefined) f.component = sanitizeComponent(f.component, doc);
          return f;
        });
      }
      return p;
    });
  }
  if (Array.isArray(project.symbols)) out.symbols = sanitizeComponent(project.symbols, doc);
  return out;
}
