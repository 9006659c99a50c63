/** What the form holds for the logo and the background between saves. Pure. */
import type { PickedImage } from '@console/shared/ui';

export type ImageState =
  { kind: 'stored'; url: string | null } | { kind: 'picked'; image: PickedImage } | { kind: 'cleared' };

export const storedImage = (url: string | null | undefined): ImageState => ({ kind: 'stored', url: url ?? null });

/** What the preview shows. */
export function previewOf(state: ImageState): string | null {
  if (state.kind === 'picked') return state.image.dataUrl;
  return state.kind === 'stored' ? state.url : null;
}
