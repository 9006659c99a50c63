/**
 * The MJML head's definitions in the designer: `mj-attributes` (the design's defaults: mj-all,
 * mj-button, mj-section, mj-class...), `mj-title`, `mj-preview`, `mj-breakpoint`,
 * `mj-html-attributes` and a head's `mj-raw` are settings, not content. The MJML preset has no type
 * for them, so their children became blocks (an empty "Button", empty sections) drawn at the top of
 * the canvas, selectable and removable. Here each is one component that keeps its MJML as written,
 * draws nothing, and cannot be selected, hovered, dragged, copied or removed; it is saved as it came
 * (MJML and project data). `mj-style` and `mj-font` keep the preset's types: they style the canvas.
 */
import { escapeAttribute } from './mjml-source';
import { sanitizeElement } from './canvas-safety';

export const HEAD_PART_TYPE = 'console-head-part';

/** Head children the preset draws itself (as styles in the canvas). */
const PRESET_HEAD_TYPES = new Set(['mj-style', 'mj-font']);

/** Nothing the user can do with a head part in the canvas or the layers. */
export const INERT = {
  selectable: false,
  hoverable: false,
  highlightable: false,
  badgable: false,
  draggable: false,
  droppable: false,
  removable: false,
  copyable: false,
  editable: false,
  stylable: false,
  layerable: false,
} as const;

/** What the parser makes of a head part: its tag and its inner MJML (made safe), no child components. */
export interface HeadPartDefinition {
  type: typeof HEAD_PART_TYPE;
  tagName: string;
  components: [];
  markup: string;
}

/** GrapesJS's isComponent for head parts: an element directly inside `mj-head`, but for mj-style and mj-font. */
export function headPartOf(el: unknown): HeadPartDefinition | false {
  if (typeof Element === 'undefined' || !(el instanceof Element)) return false;
  const tag = el.tagName.toLowerCase();
  if (el.parentElement?.tagName.toLowerCase() !== 'mj-head' || PRESET_HEAD_TYPES.has(tag)) return false;
  const copy = el.cloneNode(true) as Element;
  sanitizeElement(copy);
  return { type: HEAD_PART_TYPE, tagName: tag, components: [], markup: copy.innerHTML };
}

/** A head part as MJML: its tag, its attributes and its inner MJML as it came. */
export function headPartMjml(tagName: string, attributes: Record<string, unknown>, markup: string): string {
  let attrs = '';
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'id' || value === undefined || value === null || value === false) continue;
    attrs += value === true || value === '' ? ` ${name}` : ` ${name}="${escapeAttribute(String(value))}"`;
  }
  return `<${tagName}${attrs}>${markup}</${tagName}>`;
}

/**
 * True when project data holds a head whose definitions are blocks (saved before head parts
 * existed): such a design is opened from its MJML, saved with it, so the head becomes head parts.
 */
export function hasBlockHead(project: Record<string, unknown>): boolean {
  const visit = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(visit);
    if (value === null || typeof value !== 'object') return false;
    const def = value as Record<string, unknown>;
    if (def.type === 'mj-head' || def.tagName === 'mj-head') {
      const children = Array.isArray(def.components) ? (def.components as Record<string, unknown>[]) : [];
      return children.some((child) => {
        if (child === null || typeof child !== 'object') return false;
        const kind = String(child.type ?? child.tagName ?? '');
        return child.type !== HEAD_PART_TYPE && !PRESET_HEAD_TYPES.has(kind);
      });
    }
    return Object.values(def).some(visit);
  };
  return visit(project.pages);
}
