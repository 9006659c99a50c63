import { useEffect, useRef, useState } from 'react';
import { Spinner } from '@console/shared/ui';
import type { DesignerEditor, DesignerEditorOptions, EditorContent } from './grapes-setup';

/** The editor's chunk, the console's largest (bench/README.md, "The console's bundles"): requested only when the designer mounts. */
export const loadEditorModule = () => import(/* webpackChunkName: "template-editor" */ './grapes-setup');

type Load = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed' };

/**
 * Mounts the GrapesJS editor (our own small component: `@grapesjs/react` 2.0 does not support
 * grapesjs 0.23) into a div, once; the editor owns that div from then on. The callbacks are read
 * through a ref, so a re-render of the page never re-creates the editor.
 */
export function DesignerCanvas({
  content,
  gatewayUrl,
  pickImage,
  mergeTags,
  onChange,
  onReady,
}: {
  content: EditorContent;
  gatewayUrl: string;
  pickImage: DesignerEditorOptions['pickImage'];
  mergeTags: DesignerEditorOptions['mergeTags'];
  onChange: () => void;
  onReady: (editor: DesignerEditor) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const callbacks = useRef({ pickImage, mergeTags, onChange, onReady });
  callbacks.current = { pickImage, mergeTags, onChange, onReady };
  const initial = useRef({ content, gatewayUrl });

  useEffect(() => {
    let cancelled = false;
    let editor: DesignerEditor | null = null;
    const container = host.current;
    if (!container) return;
    loadEditorModule()
      .then(({ createDesignerEditor }) =>
        createDesignerEditor({
          container,
          content: initial.current.content,
          gatewayUrl: initial.current.gatewayUrl,
          pickImage: (current) => callbacks.current.pickImage(current),
          mergeTags: () => callbacks.current.mergeTags(),
          onChange: () => callbacks.current.onChange(),
        }),
      )
      .then((created) => {
        editor = created;
        if (cancelled) {
          created.destroy();
          return;
        }
        setLoad({ kind: 'ready' });
        callbacks.current.onReady(created);
      })
      .catch((error: unknown) => {
        console.error('[console] the designer could not start', error);
        if (!cancelled) setLoad({ kind: 'failed' });
      });
    return () => {
      cancelled = true;
      editor?.destroy();
    };
  }, []);

  return (
    <div className="relative min-h-0 flex-1">
      {load.kind === 'loading' && (
        <p className="absolute inset-0 z-10 flex items-center justify-center gap-2 bg-white text-sm text-slate-600">
          <Spinner className="h-5 w-5" decorative />
          Loading the designer…
        </p>
      )}
      {load.kind === 'failed' && (
        <p
          role="alert"
          className="absolute inset-0 z-10 flex items-center justify-center bg-white text-sm text-red-700"
        >
          The designer could not be loaded. Reload the page to try again.
        </p>
      )}
      <div ref={host} className="h-full" data-testid="designer-editor" />
    </div>
  );
}
