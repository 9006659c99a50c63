/**
 * The designer's image rules: what the image dialog hands back and when it may. An image in an
 * e-mail needs a text alternative (WCAG 2.2 SC 1.1.1): alt text that says what it shows, or, for a
 * purely decorative image, an empty alt on purpose (so screen readers skip it).
 */

/** The image chosen for an image element: its address and its alt text ('' when decorative). */
export interface ImageChoice {
  src: string;
  alt: string;
}

export interface ImageChoiceDraft {
  src: string | null;
  alt: string;
  decorative: boolean;
}

export const ALT_TEXT_MAX = 300;
export const CHOOSE_AN_IMAGE = 'Choose an image.';
export const DESCRIBE_THE_IMAGE = 'Describe the image, or mark it as decorative.';

/** The choice a draft makes, or what is missing from it. */
export function imageChoiceOf(
  draft: ImageChoiceDraft,
): { ok: true; choice: ImageChoice } | { ok: false; errors: { image?: string; alt?: string } } {
  const alt = draft.alt.trim();
  const errors: { image?: string; alt?: string } = {};
  if (!draft.src) errors.image = CHOOSE_AN_IMAGE;
  if (!draft.decorative && !alt) errors.alt = DESCRIBE_THE_IMAGE;
  if (!draft.src || errors.alt) return { ok: false, errors };
  return { ok: true, choice: { src: draft.src, alt: draft.decorative ? '' : alt } };
}

/** What GrapesJS's image components offer for a choice to be applied (an mj-image, or a plain image). */
export interface ImageTarget {
  set(props: { src: string }): unknown;
  addAttributes(attributes: Record<string, string>): unknown;
}

/** The element takes the chosen address and alt text (an empty alt for a decorative image). */
export function applyImageChoice(target: ImageTarget, choice: ImageChoice): void {
  target.set({ src: choice.src });
  target.addAttributes({ src: choice.src, alt: choice.alt });
}
