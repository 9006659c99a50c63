import { useId, useRef, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import { Button, Spinner, TextField, imageFileProblem } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { IMAGE_TYPES, MAX_IMAGE_BYTES, type TemplateImage } from '@console/shared/contracts';
import { TEMPLATES_KEY, templateImagesQuery } from '../api';
import { ALT_TEXT_MAX, imageChoiceOf, type ImageChoice } from './image-choice';

const CHECKBOX =
  'h-4 w-4 rounded border-slate-300 text-brand-600 accent-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600';

/** The footer's "Use image" (it submits the form from outside it, so Enter in the alt text does too). */
function submitButton(formId: string): HTMLButtonElement | undefined {
  return Array.from(document.querySelectorAll('button[type="submit"]')).find(
    (b): b is HTMLButtonElement => b instanceof HTMLButtonElement && b.getAttribute('form') === formId,
  );
}

type Upload = { kind: 'idle' } | { kind: 'uploading' } | { kind: 'failed'; message: string };

/**
 * The designer's image dialog, in place of GrapesJS's asset manager: the tenant's images uploaded
 * for templates (newest first, more on demand), an upload, and the alt text. A single click (or Enter
 * or Space) on an image chooses it and moves to the alt text; "Use image" applies both. Mount with a
 * key per opening.
 */
export function ImageDialog({
  open,
  onClose,
  current,
  upload,
  onChoose,
}: {
  open: boolean;
  onClose: () => void;
  /** The element's image and alt text when it has a real one (not the placeholder). */
  current: ImageChoice | null;
  upload: (file: File) => Promise<string>;
  onChoose: (choice: ImageChoice) => void;
}) {
  const client = useQueryClient();
  const formId = useId();
  const libraryId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const altRef = useRef<HTMLInputElement>(null);
  const images = useInfiniteQuery(templateImagesQuery());
  const [src, setSrc] = useState<string | null>(current?.src ?? null);
  const [alt, setAlt] = useState(current?.alt ?? '');
  const [decorative, setDecorative] = useState(false);
  const [errors, setErrors] = useState<{ image?: string; alt?: string }>({});
  const [uploaded, setUploaded] = useState<TemplateImage[]>([]);
  const [state, setState] = useState<Upload>({ kind: 'idle' });

  const listed = images.data?.pages.flatMap((p) => p.records) ?? [];
  const library = [...uploaded, ...listed.filter((i) => !uploaded.some((u) => u.url === i.url))];

  const choose = (url: string) => {
    setSrc(url);
    setErrors((e) => ({ ...e, image: undefined }));
    // The next keystroke describes the image (or, when decorative, Enter applies it).
    requestAnimationFrame(() => (decorative ? submitButton(formId) : altRef.current)?.focus());
  };

  const pick = async (file: File | undefined) => {
    if (fileRef.current) fileRef.current.value = '';
    if (!file) return;
    const problem = await imageFileProblem(file, IMAGE_TYPES, MAX_IMAGE_BYTES);
    if (problem) {
      setState({ kind: 'failed', message: problem });
      return;
    }
    setState({ kind: 'uploading' });
    try {
      const url = await upload(file);
      const image: TemplateImage = {
        url,
        name: file.name,
        content_type: IMAGE_TYPES.find((type) => type === file.type) ?? 'image/png',
        size: file.size,
        uploaded_at: new Date().toISOString(),
      };
      setUploaded((list) => [image, ...list]);
      setState({ kind: 'idle' });
      void client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'images'] });
      choose(url);
    } catch (error) {
      setState({ kind: 'failed', message: messageOf(error, 'The image could not be uploaded. Please try again.') });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = imageChoiceOf({ src, alt, decorative });
    if (!result.ok) {
      setErrors(result.errors);
      if (result.errors.alt && !result.errors.image) altRef.current?.focus();
      return;
    }
    onChoose(result.choice);
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Choose an image"
      size="lg"
      testId="image-dialog"
      footer={<FormFooter formId={formId} busy={false} submitLabel="Use image" onCancel={onClose} />}
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="secondary"
            size="sm"
            busy={state.kind === 'uploading'}
            onClick={() => fileRef.current?.click()}
          >
            Upload an image
          </Button>
          <span className="text-xs text-slate-600">PNG, JPEG, GIF or WebP, up to 5 MB.</span>
          <input
            ref={fileRef}
            type="file"
            hidden
            aria-label="Image file to upload"
            accept={IMAGE_TYPES.join(',')}
            onChange={(event) => void pick(event.target.files?.[0])}
          />
        </div>
        {state.kind === 'uploading' && (
          <p role="status" className="text-sm text-slate-600">
            Uploading…
          </p>
        )}
        {state.kind === 'failed' && (
          <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
            {state.message}
          </p>
        )}
        <section aria-labelledby={libraryId}>
          <h3 id={libraryId} className="mb-2 text-sm font-medium text-slate-800">
            Your images
          </h3>
          {errors.image && (
            <p role="alert" className="mb-2 text-xs text-red-700">
              {errors.image}
            </p>
          )}
          {images.isPending && uploaded.length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner className="h-4 w-4" decorative />
              Loading your images…
            </p>
          ) : images.isError && library.length === 0 ? (
            <p role="alert" className="text-sm text-red-700">
              Your images could not be loaded. You can still upload one.
            </p>
          ) : library.length === 0 ? (
            <p className="text-sm text-slate-600">No images yet. Upload one to use it in your templates.</p>
          ) : (
            <ul className="grid max-h-72 grid-cols-3 gap-2 overflow-y-auto p-1 sm:grid-cols-4">
              {library.map((image) => (
                <li key={image.url}>
                  <button
                    type="button"
                    aria-pressed={src === image.url}
                    onClick={() => choose(image.url)}
                    className={`flex w-full flex-col items-center gap-1 rounded-control border p-1 text-xs text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600 ${
                      src === image.url ? 'border-brand-600 bg-brand-50 ring-2 ring-brand-600' : 'border-slate-300'
                    }`}
                  >
                    <img src={image.url} alt="" className="h-20 w-full object-contain" />
                    <span className="w-full truncate">{image.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {images.hasNextPage && (
            <Button
              variant="link"
              className="mt-2"
              busy={images.isFetchingNextPage}
              onClick={() => void images.fetchNextPage()}
            >
              Show more images
            </Button>
          )}
        </section>
        <TextField
          ref={altRef}
          label="Alt text"
          hint="What the image shows, for people who cannot see it and for e-mail apps that block images."
          value={alt}
          maxLength={ALT_TEXT_MAX}
          disabled={decorative}
          error={decorative ? undefined : errors.alt}
          onChange={(event) => {
            setAlt(event.target.value);
            setErrors((e) => ({ ...e, alt: undefined }));
          }}
        />
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className={CHECKBOX}
            checked={decorative}
            onChange={(event) => {
              setDecorative(event.target.checked);
              setErrors((e) => ({ ...e, alt: undefined }));
            }}
          />
          Decorative image (no alt text: screen readers skip it)
        </label>
      </form>
    </Dialog>
  );
}
