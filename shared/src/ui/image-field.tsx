import { useId, useRef, useState, type ReactNode } from 'react';
import { Button } from './button';
import { firstError, joinIds, type FieldError } from './field-parts';

/** An image the user picked: the file to upload later and its base64 data URL (with mime type) for the preview. */
export interface PickedImage {
  file: File;
  dataUrl: string;
}

export const NOT_AN_IMAGE = 'Choose an image file.';
/** A file named and typed as an image whose bytes are not one (e.g. a text file renamed logo.png). */
export const NOT_IMAGE_CONTENT = 'This file is not an image, whatever its name says. Choose an image file.';

/**
 * Whether the file's first bytes are an image of its declared type (sniffImageType, the gateway's rule):
 * spec section 5 accepts images only, and the name or the browser's type guessed from it proves nothing.
 */
export async function hasImageContent(file: Blob): Promise<boolean> {
  // The contracts load when a file is picked, not with the UI kit.
  const { SNIFF_BYTES, sniffImageType } = await import('@console/shared/contracts');
  const head = new Uint8Array(await readHead(file.slice(0, SNIFF_BYTES)));
  const sniffed = sniffImageType(head);
  return sniffed !== null && sniffed === file.type;
}

function readHead(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      reader.result instanceof ArrayBuffer ? resolve(reader.result) : reject(new Error('Unreadable file'));
    reader.onerror = () => reject(reader.error ?? new Error('Unreadable file'));
    reader.readAsArrayBuffer(blob);
  });
}

/** Read a file as a base64 `data:<mime>;base64,...` URL. */
export function readImageFile(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('Unreadable file'));
    reader.onerror = () => reject(reader.error ?? new Error('Unreadable file'));
    reader.readAsDataURL(file);
  });
}

/** True when `file` is an image of one of the accepted mime types (any image when none are listed). */
export function isAcceptedImage(file: Pick<File, 'type'>, accept: readonly string[] = []): boolean {
  if (!file.type.startsWith('image/')) return false;
  return accept.length === 0 || accept.includes(file.type);
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/**
 * Why a picked file cannot be uploaded as an image, or null when it can: an accepted type, at most
 * `maxBytes`, and bytes that are that type (hasImageContent).
 */
export async function imageFileProblem(
  file: File,
  accept: readonly string[] = [],
  maxBytes?: number,
): Promise<string | null> {
  if (!isAcceptedImage(file, accept)) return NOT_AN_IMAGE;
  if (maxBytes !== undefined && file.size > maxBytes) return `Choose an image up to ${megabytes(maxBytes)}.`;
  if (!(await hasImageContent(file).catch(() => false))) return NOT_IMAGE_CONTENT;
  return null;
}

export interface ImageFieldProps {
  label: string;
  /** What the preview shows: a stored image address, a picked image's data URL, or null. */
  src: string | null;
  onSelect: (image: PickedImage) => void;
  onClear: () => void;
  /** Server or caller errors; the first one shows under the field. */
  error?: FieldError;
  /** Accepted mime types (default: any image). */
  accept?: readonly string[];
  /** Largest file accepted, in bytes. */
  maxBytes?: number;
  hint?: ReactNode;
  /** Id of the file input (to focus it on an error). */
  id?: string;
  /** The clear button's word (default 'Clear'); its accessible name is this word and the label. */
  clearText?: string;
  /** Blocks picking and clearing (while the form saves). */
  disabled?: boolean;
}

/**
 * Image upload with preview and clear (spec section 5: images only, read as base64 with mime type).
 * Nothing is uploaded here: the caller keeps the picked file and uploads it when the form is saved.
 */
export function ImageField({
  label,
  src,
  onSelect,
  onClear,
  error,
  accept = [],
  maxBytes,
  hint,
  id,
  clearText = 'Clear',
  disabled = false,
}: ImageFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const inputRef = useRef<HTMLInputElement>(null);
  const [rejected, setRejected] = useState<string | null>(null);
  const message = rejected ?? firstError(error);
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const problem = await imageFileProblem(file, accept, maxBytes);
    if (problem) {
      setRejected(problem);
    } else {
      try {
        const dataUrl = await readImageFile(file);
        setRejected(null);
        onSelect({ file, dataUrl });
      } catch {
        setRejected(NOT_AN_IMAGE);
      }
    }
    if (inputRef.current) inputRef.current.value = '';
  };

  return (
    <div>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-control bg-slate-100 ring-1 ring-slate-200">
          {src ? (
            <img src={src} alt={`${label} preview`} className="h-full w-full object-cover" />
          ) : (
            <span className="text-xs text-slate-600">No image</span>
          )}
        </div>
        <div className="flex flex-col items-start gap-2">
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            disabled={disabled}
            accept={accept.length > 0 ? accept.join(',') : 'image/*'}
            aria-invalid={message ? true : undefined}
            aria-describedby={joinIds(message && errorId, hint ? hintId : null)}
            onChange={(event) => void pick(event.target.files?.[0])}
            className="block text-sm text-slate-700 file:mr-3 file:rounded-control file:border-0 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-900 file:shadow-sm file:ring-1 file:ring-slate-300 file:ring-inset hover:file:bg-slate-50"
          />
          {src && (
            <Button
              variant="link"
              aria-label={`${clearText} ${label}`}
              disabled={disabled}
              onClick={() => {
                setRejected(null);
                onClear();
              }}
            >
              {clearText}
            </Button>
          )}
        </div>
      </div>
      {message && (
        <p id={errorId} className="mt-1 text-xs text-red-700">
          {message}
        </p>
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
