import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';

/** Tags an HTML body may keep: text formatting, paragraphs, lists, links, inline code. */
export const SANITIZE_ALLOWED_TAGS: readonly string[] = [
  'p',
  'br',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'small',
  'mark',
  'sub',
  'sup',
  'a',
  'ul',
  'ol',
  'li',
  'span',
  'code',
];

/** The only attribute an HTML body may keep (and only on <a>). */
export const SANITIZE_ALLOWED_ATTRIBUTES: readonly string[] = ['href'];

/** Link schemes a body may use. Relative and every other scheme (javascript:, data:, vbscript:, ...) are dropped. */
export const SAFE_LINK_PROTOCOLS: readonly string[] = ['http:', 'https:', 'mailto:'];

const CONFIG: Config = {
  ALLOWED_TAGS: [...SANITIZE_ALLOWED_TAGS],
  ALLOWED_ATTR: [...SANITIZE_ALLOWED_ATTRIBUTES],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
  KEEP_CONTENT: true,
  WHOLE_DOCUMENT: false,
};

/** True for absolute http(s) and mailto URLs. */
export function isSafeLink(href: string): boolean {
  try {
    return SAFE_LINK_PROTOCOLS.includes(new URL(href.trim()).protocol);
  } catch {
    return false;
  }
}

let instance: Purifier | null = null;

/** A private DOMPurify instance, so our hooks never change how other code in the page sanitises. */
function purifier(): Purifier | null {
  if (instance) return instance;
  if (typeof window === 'undefined') return null;
  const created = DOMPurify(window);
  if (!created.isSupported) return null;
  created.addHook('uponSanitizeAttribute', (node, event) => {
    if (event.attrName === 'href' && node.nodeName !== 'A') event.keepAttr = false;
  });
  created.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href !== null && isSafeLink(href)) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else {
      node.removeAttribute('href');
      node.removeAttribute('target');
      node.removeAttribute('rel');
    }
  });
  instance = created;
  return instance;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Sanitise an HTML body with a strict allowlist: text formatting, p, br, lists, span, code and links
 * (http/https/mailto only, opened in a new tab with rel="noopener noreferrer"). Scripts, styles,
 * iframes, images, event handlers, style/data-/aria- attributes and every other scheme are removed.
 * Without a DOM (never in the browser) the whole text is escaped instead.
 */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  const p = purifier();
  if (!p) return escapeHtml(html);
  return p.sanitize(html, CONFIG);
}
