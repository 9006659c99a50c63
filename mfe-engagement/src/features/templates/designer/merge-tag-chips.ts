/**
 * Merge tags in the designer's canvas as chips showing the sample values (the merge-tag catalogue's
 * examples: the same sample values as Preview and the templates' thumbnails), e.g. "Acme DAO" for
 * `{{ community.name }}`, with the tag and its label as the chip's title.
 *
 * The chips are drawn in the canvas only: the model (and so the saved MJML and project data) keeps
 * the Liquid as written. A chip holds its tag in an attribute, so undecorating puts back the very same
 * text; a text is undecorated before it is edited (GrapesJS reads an edited text's markup back into the
 * model), and a text being edited is never decorated, so typing and inserting tags work on plain text.
 */

import type { MergeTagCatalogue } from '@console/shared/contracts';

/** The attribute a chip keeps its Liquid output in; its presence marks a chip. */
export const CHIP_ATTRIBUTE = 'data-console-merge-tag';

/** What the catalogue says of a merge tag: its label and its sample value. */
export interface MergeTagInfo {
  label: string;
  example: string;
}

export type DescribeMergeTag = (path: string) => MergeTagInfo | null;

/** A Liquid output (`{{ … }}`), as written. */
const OUTPUT = /\{\{[\s\S]*?\}\}/g;
/** The variable an output reads: its first path (`contact.first_name` of `{{ contact.first_name | default: "" }}`). */
const PATH = /^\{\{-?\s*([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)/;

/** Elements whose text is not drawn as content. */
const NOT_CONTENT = new Set(['STYLE', 'SCRIPT', 'TITLE', 'TEXTAREA', 'NOSCRIPT', 'TEMPLATE']);

/** Text nodes made by decorating (the text between and after chips): joined back when undecorating. */
const splitOff = new WeakSet<Node>();

/** A text node, of whichever frame's document (`instanceof Text` would be this window's only). */
function isText(node: Node | null): node is Text {
  return node?.nodeType === Node.TEXT_NODE;
}

export function mergeTagPath(output: string): string | null {
  return PATH.exec(output)?.[1] ?? null;
}

/** The chip's look in the canvas (a style element of the canvas frame). */
export const CHIP_CSS = `[${CHIP_ATTRIBUTE}]{background-color:rgba(107,4,253,.12);box-shadow:inset 0 0 0 1px rgba(107,4,253,.45);border-radius:4px;padding:0 2px;white-space:nowrap;cursor:default}
[${CHIP_ATTRIBUTE}][data-unknown]{background-color:rgba(220,38,38,.1);box-shadow:inset 0 0 0 1px rgba(220,38,38,.5)}`;

function isSkipped(node: Node, root: Element): boolean {
  for (let el = node.parentElement; el; el = el.parentElement) {
    if (NOT_CONTENT.has(el.tagName) || el.hasAttribute(CHIP_ATTRIBUTE)) return true;
    // A text being edited keeps its plain text.
    if (el.getAttribute('contenteditable') === 'true') return true;
    if (el === root) break;
  }
  return false;
}

function chipOf(doc: Document, output: string, describe: DescribeMergeTag): HTMLElement {
  const chip = doc.createElement('span');
  chip.setAttribute(CHIP_ATTRIBUTE, output);
  chip.setAttribute('contenteditable', 'false');
  const path = mergeTagPath(output);
  const info = path ? describe(path) : null;
  if (info) {
    chip.textContent = info.example || info.label;
    chip.title = `${info.label}: ${output}`;
  } else {
    chip.textContent = output;
    chip.title = `Unknown merge tag: ${output}`;
    chip.setAttribute('data-unknown', '');
  }
  return chip;
}

/**
 * Shows each merge tag in the text under `root` as a chip. The text node a tag is found in stays in
 * place (GrapesJS's text node views keep a reference to it), holding the text before the tag.
 */
export function decorateMergeTags(root: Element, describe: DescribeMergeTag): void {
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (isText(node) && node.data.includes('{{') && !isSkipped(node, root)) found.push(node);
  }
  for (const text of found) {
    const data = text.data;
    const matches = [...data.matchAll(OUTPUT)];
    if (matches.length === 0) continue;
    const after: Node[] = [];
    for (const [i, match] of matches.entries()) {
      after.push(chipOf(doc, match[0], describe));
      const next = matches[i + 1]?.index ?? data.length;
      const between = data.slice(match.index + match[0].length, next);
      if (between) {
        const split = doc.createTextNode(between);
        splitOff.add(split);
        after.push(split);
      }
    }
    text.data = data.slice(0, matches[0]?.index ?? 0);
    text.after(...after);
  }
}

/**
 * Puts every chip under `root` back as the text it came from, joined into the text node before it
 * (the one decorating kept in place, so GrapesJS's views still hold the node they drew), with the
 * text decorating split off after it.
 */
export function undecorateMergeTags(root: ParentNode): void {
  for (const chip of Array.from(root.querySelectorAll(`[${CHIP_ATTRIBUTE}]`))) {
    const output = chip.getAttribute(CHIP_ATTRIBUTE) ?? '';
    const before = chip.previousSibling;
    if (!isText(before)) {
      chip.replaceWith(chip.ownerDocument.createTextNode(output));
      continue;
    }
    before.appendData(output);
    let next = chip.nextSibling;
    while (isText(next) && splitOff.has(next)) {
      before.appendData(next.data);
      const gone = next;
      next = next.nextSibling;
      gone.remove();
    }
    chip.remove();
  }
}

/** The catalogue (GET /v1/templates/merge-tags) as a lookup by tag. */
export function describeFrom(catalogue: MergeTagCatalogue): DescribeMergeTag {
  const byTag = new Map<string, MergeTagInfo>();
  for (const group of catalogue.groups) {
    for (const tag of group.tags) byTag.set(tag.tag, { label: tag.label, example: tag.example });
  }
  return (path) => byTag.get(path) ?? null;
}
