/** What an uploaded image really is: the rule is the contracts' sniffImageType, shared with the console. */
import type { ImageType } from '../../contracts';

export { SNIFF_BYTES, sniffImageType } from '../../contracts';

const LABELS: Record<ImageType, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
};

/** The refusal for bytes that are not the declared type: 'The file is not a PNG image.' */
export function notThatImage(declared: ImageType): string {
  return `The file is not a ${LABELS[declared]} image.`;
}
