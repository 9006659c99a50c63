import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Spinner } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import { previewTemplate } from '../api';
import { PreviewContactPicker, type PreviewContact } from './preview-contact';

export const PREVIEW_WIDTHS = { desktop: 700, mobile: 375 } as const;
type Device = keyof typeof PREVIEW_WIDTHS;

/**
 * The saved template as the server renders it, merge tags resolved for the chosen contact (or sample
 * values), on a desktop or a mobile width. The e-mail is shown in a sandboxed iframe: no scripts, no
 * same-origin. `ensureSaved` runs first so the preview shows the latest edit.
 */
export function PreviewDialog({
  templateId,
  open,
  onClose,
  contact,
  onContact,
  ensureSaved,
}: {
  templateId: string;
  open: boolean;
  onClose: () => void;
  contact: PreviewContact | null;
  onContact: (contact: PreviewContact | null) => void;
  ensureSaved: () => Promise<boolean>;
}) {
  const [device, setDevice] = useState<Device>('desktop');
  const preview = useQuery({
    queryKey: ['templates', 'preview', templateId, contact?.id ?? null],
    queryFn: async () => {
      await ensureSaved();
      return previewTemplate(templateId, contact?.id ?? null);
    },
    enabled: open,
    gcTime: 0,
    retry: false,
  });
  const data = preview.data;

  return (
    <Dialog open={open} onClose={onClose} title="Preview" size="xl" showCloseButton testId="template-preview-dialog">
      <div className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <PreviewContactPicker value={contact} onChange={onContact} />
          <div role="group" aria-label="Width" className="inline-flex rounded-control ring-1 ring-slate-300">
            {(['desktop', 'mobile'] as const).map((d) => (
              <button
                key={d}
                type="button"
                aria-pressed={device === d}
                onClick={() => setDevice(d)}
                className={`px-3 py-1.5 text-sm font-medium first:rounded-l-control last:rounded-r-control focus-visible:outline-2 focus-visible:outline-brand-600 ${
                  device === d ? 'bg-brand-600 text-white' : 'bg-white text-slate-800 hover:bg-slate-50'
                }`}
              >
                {d === 'desktop' ? 'Desktop' : 'Mobile'}
              </button>
            ))}
          </div>
        </div>
        {preview.isPending && (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="h-4 w-4" decorative />
            Rendering…
          </p>
        )}
        {preview.isError && (
          <p role="alert" className="text-sm text-red-700">
            {preview.error.message}
          </p>
        )}
        {data && (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="font-medium text-slate-800">Subject</dt>
              <dd className="text-slate-900">{data.subject || '(no subject)'}</dd>
              <dt className="font-medium text-slate-800">Preview text</dt>
              <dd className="text-slate-700">{data.preview_text || '(none)'}</dd>
            </dl>
            {data.warnings.length > 0 && (
              <ul className="list-inside list-disc text-sm text-amber-800">
                {data.warnings.map((w) => (
                  <li key={`${w.field}:${w.tag}`}>{w.message}</li>
                ))}
              </ul>
            )}
            <div className="flex justify-center overflow-x-auto rounded-control bg-slate-100 p-3">
              <iframe
                sandbox=""
                srcDoc={data.html}
                title={`E-mail preview, ${device === 'desktop' ? 'desktop' : 'mobile'} width`}
                data-device={device}
                className="h-[60vh] border-0 bg-white shadow-sm"
                style={{ width: PREVIEW_WIDTHS[device] }}
              />
            </div>
          </>
        )}
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close Window
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
