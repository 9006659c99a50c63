import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from '@console/shared/router';
import { ApiError, messageOf } from '@console/shared/api';
import { runtimeConfig } from '@console/shared/config';
import { Button, Spinner, TextField, notify } from '@console/shared/ui';
import { SlideOver } from '@console/shared/overlays';
import { TEMPLATE_LIMITS, type Template, type TemplateSaved } from '@console/shared/contracts';
import {
  TEMPLATES_KEY,
  mergeTagsQuery,
  restoreVersion,
  sendTestTemplate,
  templateQuery,
  uploadImage,
  versionsQuery,
} from '../api';
import { insertAt } from '../template-rules';
import { DesignerCanvas } from './designer-canvas';
import type { DesignerEditor } from './grapes-setup';
import { MergeTagMenu } from './merge-tag-menu';
import { VersionList } from './version-list';
import { PreviewDialog } from './preview-dialog';
import { TestSendDialog } from './test-send-dialog';
import { CodeDialog } from './code-dialog';
import { SaveIndicator } from './save-indicator';
import { useAutosave, type DesignSnapshot } from './use-autosave';
import type { PreviewContact } from './preview-contact';
import { designerReturn } from './designer-return';
import { ImageDialog } from './image-dialog';
import { describeFrom } from './merge-tag-chips';
import type { ImageChoice } from './image-choice';

/** An open image dialog: the element's image and where the choice goes (null when dismissed). */
interface ImageRequest {
  current: ImageChoice | null;
  resolve: (choice: ImageChoice | null) => void;
}

const FIELD_NAMES: Record<string, string> = { mjml: 'Design', subject: 'Subject', preview_text: 'Preview text' };

/** The designer route: loads the template, then the editor (its own chunk). */
export function DesignerScreen({ templateId }: { templateId: string }) {
  const template = useQuery(templateQuery(templateId));
  if (template.isPending) {
    return (
      <p className="flex h-screen items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner className="h-5 w-5" decorative />
        Loading the template…
      </p>
    );
  }
  if (template.isError) {
    const gone = template.error instanceof ApiError && template.error.status === 404;
    return (
      <div className="mx-auto max-w-lg p-8 text-sm">
        <h1 className="text-lg font-semibold text-slate-900">
          {gone ? 'Template not found' : 'The template could not be loaded'}
        </h1>
        <p className="mt-2 text-slate-700">{gone ? 'It may have been deleted.' : template.error.message}</p>
        <Link to="/engagement/templates" className="mt-4 inline-block text-brand-700 underline">
          Back to templates
        </Link>
      </div>
    );
  }
  return <Designer key={templateId} initial={template.data} />;
}

type Panel = 'none' | 'versions' | 'preview' | 'test' | 'code';

function Designer({ initial }: { initial: Template }) {
  const client = useQueryClient();
  const back = designerReturn(useLocation().search);
  const id = initial._id;
  const mergeTags = useQuery(mergeTagsQuery());
  // The canvas shows merge tags as chips with the catalogue's sample values, once it is known.
  const describeMergeTag = useMemo(() => (mergeTags.data ? describeFrom(mergeTags.data) : null), [mergeTags.data]);
  const editorRef = useRef<DesignerEditor | null>(null);
  const [ready, setReady] = useState(false);
  const [subject, setSubject] = useState(initial.subject);
  const [previewText, setPreviewText] = useState(initial.preview_text);
  const fields = useRef({ subject: initial.subject, preview_text: initial.preview_text });
  fields.current = { subject, preview_text: previewText };
  const [version, setVersion] = useState(initial.version);
  const [panel, setPanel] = useState<Panel>('none');
  const [openings, setOpenings] = useState(0);
  const [code, setCode] = useState('');
  const [restoring, setRestoring] = useState<number | null>(null);
  const [contact, setContact] = useState<PreviewContact | null>(null);
  const [imageRequest, setImageRequest] = useState<ImageRequest | null>(null);
  const subjectRef = useRef<HTMLInputElement>(null);
  const previewRef = useRef<HTMLInputElement>(null);
  const versions = useQuery({ ...versionsQuery(id), enabled: panel === 'versions' });

  const read = useCallback(async (): Promise<DesignSnapshot> => {
    const editor = editorRef.current;
    const design = editor ? await editor.read() : { mjml: initial.mjml, project: initial.project };
    return { ...design, ...fields.current };
  }, [initial]);

  const onSaved = useCallback(
    (saved: TemplateSaved) => {
      setVersion(saved.template.version);
      client.setQueryData(templateQuery(id).queryKey, saved.template);
      void client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'versions', id] });
      void client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
    },
    [client, id],
  );

  const autosave = useAutosave({
    templateId: id,
    version: initial.version,
    loaded: {
      mjml: initial.mjml,
      project: initial.project,
      subject: initial.subject,
      preview_text: initial.preview_text,
    },
    read,
    onSaved,
  });
  const { changed, flush, reset } = autosave;

  const onReady = useCallback(
    (editor: DesignerEditor) => {
      editorRef.current = editor;
      setReady(true);
      // The editor's own serialisation of what was loaded is the baseline: opening saves nothing.
      void read().then((snapshot) => reset(snapshot, initial.version));
    },
    [read, reset, initial.version],
  );

  const pickImage = useCallback(
    (current: ImageChoice | null) =>
      new Promise<ImageChoice | null>((resolve) => {
        setOpenings((n) => n + 1);
        setImageRequest({ current, resolve });
      }),
    [],
  );
  const closeImage = (choice: ImageChoice | null) => {
    imageRequest?.resolve(choice);
    setImageRequest(null);
  };

  useEffect(() => {
    if (ready) editorRef.current?.refreshMergeTags();
  }, [ready, describeMergeTag]);

  const open = (next: Panel) => {
    setOpenings((n) => n + 1);
    setPanel(next);
  };
  const close = () => setPanel('none');

  const insertIntoField = (
    ref: React.RefObject<HTMLInputElement | null>,
    value: string,
    set: (v: string) => void,
    liquid: string,
  ) => {
    const input = ref.current;
    const next = insertAt(value, liquid, input?.selectionStart ?? null, input?.selectionEnd ?? null);
    set(next.value);
    changed();
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(next.caret, next.caret);
    });
  };

  const insertIntoText = (liquid: string) => {
    if (!editorRef.current?.insertText(liquid)) {
      notify.error('Double-click a text in the design to place the cursor, then choose a merge tag.');
    }
  };

  const openCode = async () => {
    const snapshot = await read();
    setCode(snapshot.mjml);
    open('code');
  };

  const applyCode = (mjml: string) => {
    editorRef.current?.load({ mjml, project: null });
    changed();
  };

  const restore = async (target: number) => {
    setRestoring(target);
    try {
      await flush();
      const { template: restored } = await restoreVersion(id, target);
      editorRef.current?.load({ mjml: restored.mjml, project: restored.project });
      setSubject(restored.subject);
      setPreviewText(restored.preview_text);
      fields.current = { subject: restored.subject, preview_text: restored.preview_text };
      setVersion(restored.version);
      reset(await read(), restored.version);
      client.setQueryData(templateQuery(id).queryKey, restored);
      await client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'versions', id] });
      notify.success(`Version ${target} restored as version ${restored.version}.`);
    } catch (error) {
      notify.error(messageOf(error, 'The version could not be restored.'));
    } finally {
      setRestoring(null);
    }
  };

  const status = autosave.status;
  const errors = status.kind === 'failed' ? status.errors : {};
  const errorLines = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((m) => `${FIELD_NAMES[field] ?? field}: ${m}`),
  );

  return (
    <div className="flex h-screen flex-col bg-white">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-2">
        <Link to={back.to} className="text-sm text-brand-700 hover:underline">
          <span aria-hidden="true">← </span>
          {back.label}
        </Link>
        <h1 className="truncate text-base font-semibold text-slate-900">{initial.name}</h1>
        <SaveIndicator status={status} onRetry={() => void flush()} />
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {/* GrapesJS ends text editing on any mousedown in the page: the menu's own (its button and
              its items, portalled but inside this React tree) stop here, so the text stays in editing
              and the tag goes in at its caret. */}
          <span className="contents" onMouseDown={(event) => event.stopPropagation()}>
            <MergeTagMenu
              catalogue={mergeTags.isError ? null : mergeTags.data}
              label="Insert a merge tag into the text being edited"
              onPick={insertIntoText}
            />
          </span>
          <Button variant="secondary" size="sm" disabled={!ready} onClick={() => void openCode()}>
            Code
          </Button>
          <Button variant="secondary" size="sm" onClick={() => open('versions')}>
            Versions
          </Button>
          <Button variant="secondary" size="sm" disabled={!ready} onClick={() => open('preview')}>
            Preview
          </Button>
          <Button size="sm" disabled={!ready} onClick={() => open('test')}>
            Send test
          </Button>
        </div>
      </header>
      <div className="grid gap-3 border-b border-slate-200 px-4 py-2 md:grid-cols-2">
        <div className="flex items-end gap-2">
          <TextField
            ref={subjectRef}
            label="Subject"
            value={subject}
            maxLength={TEMPLATE_LIMITS.subject}
            error={errors.subject?.[0]}
            containerClassName="flex-1"
            onChange={(event) => {
              setSubject(event.target.value);
              changed();
            }}
          />
          <MergeTagMenu
            catalogue={mergeTags.isError ? null : mergeTags.data}
            label="Insert a merge tag into the subject"
            onPick={(liquid) => insertIntoField(subjectRef, subject, setSubject, liquid)}
          />
        </div>
        <div className="flex items-end gap-2">
          <TextField
            ref={previewRef}
            label="Preview text"
            value={previewText}
            maxLength={TEMPLATE_LIMITS.previewText}
            error={errors.preview_text?.[0]}
            containerClassName="flex-1"
            onChange={(event) => {
              setPreviewText(event.target.value);
              changed();
            }}
          />
          <MergeTagMenu
            catalogue={mergeTags.isError ? null : mergeTags.data}
            label="Insert a merge tag into the preview text"
            onPick={(liquid) => insertIntoField(previewRef, previewText, setPreviewText, liquid)}
          />
        </div>
      </div>
      {status.kind === 'failed' && (
        <div role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800">
          <p className="font-medium">
            {status.message} The last saved version is kept; fix this and the design is saved again.
          </p>
          {errorLines.length > 0 && (
            <ul className="mt-1 list-inside list-disc">
              {errorLines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {autosave.warnings.length > 0 && (
        <div
          className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
          data-testid="merge-tag-warnings"
        >
          <p className="font-medium">Unknown merge tags (they will print empty or fail for recipients):</p>
          <ul className="mt-1 list-inside list-disc">
            {autosave.warnings.map((w) => (
              <li key={`${w.field}:${w.tag}`}>
                <code className="font-mono">{w.tag}</code> in {FIELD_NAMES[w.field] ?? w.field}: {w.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <DesignerCanvas
        content={{ mjml: initial.mjml, project: initial.project }}
        gatewayUrl={runtimeConfig().gatewayUrl}
        pickImage={pickImage}
        mergeTags={() => describeMergeTag}
        onChange={changed}
        onReady={onReady}
      />
      {imageRequest && (
        <ImageDialog
          key={openings}
          open
          current={imageRequest.current}
          upload={uploadImage}
          onChoose={(choice) => closeImage(choice)}
          onClose={() => closeImage(null)}
        />
      )}
      <SlideOver
        open={panel === 'versions'}
        onClose={close}
        title="Versions"
        description={`The last ${TEMPLATE_LIMITS.versionsKept} saves. Restoring one saves it as a new version.`}
      >
        {versions.isPending ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="h-4 w-4" decorative />
            Loading versions…
          </p>
        ) : versions.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {versions.error.message}
          </p>
        ) : (
          <VersionList
            versions={versions.data.records}
            current={version}
            restoring={restoring}
            onRestore={(v) => void restore(v)}
          />
        )}
      </SlideOver>
      {panel === 'preview' && (
        <PreviewDialog
          key={openings}
          templateId={id}
          open
          onClose={close}
          contact={contact}
          onContact={setContact}
          ensureSaved={flush}
        />
      )}
      {panel === 'test' && (
        <TestSendDialog
          key={openings}
          open
          onClose={close}
          ensureSaved={flush}
          unsavedMessage="The latest changes are not saved yet: fix what the designer reports, then send again."
          send={(recipients) => sendTestTemplate(id, recipients, contact?.id ?? null)}
          maxRecipients={TEMPLATE_LIMITS.testRecipients}
          maxLength={1000}
          note={
            <p className="text-sm text-slate-600">
              Merge tags are filled in with {contact ? `the values of ${contact.label}` : 'sample values'} (choose a
              contact in Preview).
            </p>
          }
        />
      )}
      {panel === 'code' && <CodeDialog key={openings} open onClose={close} mjml={code} onApply={applyCode} />}
    </div>
  );
}
