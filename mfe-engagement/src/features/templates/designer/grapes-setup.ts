/**
 * The e-mail designer's editor: GrapesJS 0.23 with its MJML preset (grapesjs-mjml 1.0), in a chunk of
 * its own that only the designer route loads. Set up to work offline: no telemetry, no icon stylesheet
 * from a CDN (Font Awesome 4.7 is bundled and served by this remote), no web fonts in the canvas, no
 * placeholder images from an image service, social icons from the gateway, no canvas scripts.
 */
import grapesjs, { type Component, type Editor } from 'grapesjs';
import mjmlPreset from 'grapesjs-mjml';
import grapesCss from 'grapesjs/dist/css/grapes.min.css?inline';
import iconCss from 'font-awesome/css/font-awesome.min.css?inline';
import iconFont from 'font-awesome/fonts/fontawesome-webfont.woff2';
import { IMAGE_PLACEHOLDER, emailBlocks, socialIcon } from './email-blocks';
import { expandSelfClosing } from './mjml-source';
import { insertTextAtCaret } from './caret-insert';
import { sanitizeElement, sanitizeParsedNode, sanitizeProject, type ParsedNodeLike } from './canvas-safety';
import { HEAD_PART_TYPE, INERT, hasBlockHead, headPartMjml, headPartOf } from './head-parts';

export interface EditorContent {
  mjml: string;
  project: Record<string, unknown> | null;
}

export interface DesignerEditorOptions {
  container: HTMLElement;
  content: EditorContent;
  gatewayUrl: string;
  uploadImage: (file: File) => Promise<string>;
  onChange: () => void;
  onUploadError: (error: unknown) => void;
}

export interface DesignerEditor {
  /** The design as MJML (a text being typed included) and as the editor's project data (null while a text is being edited). */
  read(): Promise<EditorContent>;
  /** Insert text at the caret of the text being edited; false when no text is being edited. */
  insertText(text: string): boolean;
  /** Replace the design (a restored version, MJML from the code view). */
  load(content: EditorContent): void;
  destroy(): void;
}

const STYLE_ID = 'console-designer-styles';

/**
 * The icon font's face: its WOFF2 only, as a data: URL. Font Awesome's own @font-face also names
 * EOT, WOFF, TTF and SVG files, which Chromium requests (and the CSP refuses) even once the WOFF2 has
 * loaded; every browser the console supports reads WOFF2.
 */
const ICON_FACE = `@font-face{font-family:'FontAwesome';src:url(${iconFont}) format('woff2');font-weight:normal;font-style:normal}`;

/**
 * The editor's colours (GrapesJS theme variables), chosen for WCAG AA contrast: light text on dark
 * panels, white on the accent. The MJML preset's own theme (grey #888686 on #2c2e35, 4.0:1) is off.
 */
const THEME = `:root{--gjs-primary-color:#1e293b;--gjs-main-color:#1e293b;--gjs-secondary-color:#e2e8f0;--gjs-tertiary-color:#6b04fd;--gjs-quaternary-color:#c4b5fd;--gjs-font-color:#e2e8f0;--gjs-font-color-active:#ffffff;--gjs-color-blue:#1d4ed8}
.gjs-badge{background-color:#1d4ed8;color:#ffffff}`;

/** GrapesJS's and the icon font's stylesheets, once per document (they stay for the next opening). */
function addStyles() {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = `${ICON_FACE}\n${iconCss.replace(/@font-face\s*\{[^}]*\}/g, '')}\n${grapesCss}\n${THEME}`;
  document.head.append(style);
}

/**
 * mjml adds a Google Fonts link for each of its default fonts a design names (Ubuntu is the default
 * of every text). Giving it a font list of its own replaces that list; this one entry never matches,
 * so no font link is ever added.
 */
const NO_WEB_FONTS = { 'console-no-web-fonts': '' };

/** What read() uses of a text component's view (GrapesJS types do not expose them). */
interface TextView {
  rteEnabled?: boolean;
  getContent?: () => Promise<string>;
}
interface SerialisedModel {
  toHTML: (opts?: object) => string;
}

/** A social element without its own icon would get the MJML authors' hosted one: point it at the gateway's. */
function ownSocialIcons(component: Component, gatewayUrl: string) {
  const visit = (c: Component) => {
    if (c.get('type') === 'mj-social-element') {
      const attributes = c.getAttributes();
      if (!attributes.src) {
        const icon = socialIcon(gatewayUrl, String(attributes.name ?? 'web'));
        c.addAttributes({
          src: icon.src,
          ...(attributes['background-color'] ? {} : { 'background-color': icon.color }),
        });
      }
    }
    c.components().forEach(visit);
  };
  visit(component);
}

function loadInto(editor: Editor, content: EditorContent) {
  // Project data is loaded without the HTML parser: it is made safe first (canvas-safety.ts). A
  // design whose head was saved as blocks opens from its MJML (saved with it) into head parts.
  if (content.project && !hasBlockHead(content.project)) editor.loadProjectData(sanitizeProject(content.project));
  else editor.setComponents(expandSelfClosing(content.mjml));
}

/** The parser's tree, before components are made from it: no handlers, no script URLs (canvas-safety.ts). */
function sanitizeParsedRoot({ root }: { root?: ParsedNodeLike & { __domNode?: unknown } }) {
  if (!root) return;
  sanitizeParsedNode(root);
  // Types' isComponent read the DOM node the tree was made from: it is made safe too.
  const dom = root.__domNode;
  if (dom instanceof Element) sanitizeElement(dom);
  else if (dom instanceof Document && dom.documentElement) sanitizeElement(dom.documentElement);
  else if (dom instanceof DocumentFragment || dom instanceof Document) {
    for (const child of Array.from(dom.children)) sanitizeElement(child);
  }
}

/** The head's definitions as settings, not blocks (head-parts.ts); the head itself is not selectable. */
function addHeadParts(editor: Editor) {
  editor.Components.addType(HEAD_PART_TYPE, {
    isComponent: headPartOf,
    model: {
      defaults: { ...INERT, markup: '' },
      toHTML(this: Component) {
        return headPartMjml(this.get('tagName') ?? 'mj-raw', this.getAttributes(), String(this.get('markup') ?? ''));
      },
    },
    view: {
      render() {
        this.el.hidden = true;
        return this;
      },
    },
  });
  editor.Components.addType('mj-head', { model: { defaults: { ...INERT } } });
}

/**
 * An image without a source (none written, or a script URL removed by canvas-safety.ts) shows the
 * console's placeholder and is saved with it: GrapesJS's own default is raw SVG markup, which the
 * MJML serialiser writes unescaped into the attribute (invalid MJML, refused at save).
 */
function addImagePlaceholder(editor: Editor) {
  editor.Components.addType('mj-image', { model: { defaults: { src: IMAGE_PLACEHOLDER } } });
}

/** Resolves once the editor has loaded the design; changes are reported from then on. */
export function createDesignerEditor(options: DesignerEditorOptions): Promise<DesignerEditor> {
  addStyles();
  const { gatewayUrl } = options;
  const editor = grapesjs.init({
    container: options.container,
    height: '100%',
    width: 'auto',
    fromElement: false,
    telemetry: false,
    cssIcons: '',
    storageManager: false,
    canvas: { styles: [], scripts: [] },
    // No scripts, handlers or script URLs from a template reach the same-origin canvas
    // (docs/templates.md, "CSP"); canvas-safety.ts removes what GrapesJS's own checks miss.
    parser: { optionsHtml: { allowScripts: false, allowUnsafeAttr: false, allowUnsafeAttrValue: false } },
    assetManager: {
      assets: [],
      embedAsBase64: false,
      upload: false,
      uploadFile: (event: DragEvent | Event) => {
        const target = event.target instanceof HTMLInputElement ? event.target : null;
        const files = Array.from(('dataTransfer' in event && event.dataTransfer?.files) || target?.files || []);
        for (const file of files) {
          options
            .uploadImage(file)
            .then((url) => editor.AssetManager.add({ src: url, name: file.name }))
            .catch(options.onUploadError);
        }
        return undefined;
      },
    },
    plugins: [
      (ed: Editor) =>
        mjmlPreset(ed, {
          blocks: [],
          resetBlocks: true,
          imagePlaceholderSrc: IMAGE_PLACEHOLDER,
          fonts: NO_WEB_FONTS,
          useCustomTheme: false,
        }),
    ],
  });

  editor.on('parse:html:root', sanitizeParsedRoot);
  addHeadParts(editor);
  addImagePlaceholder(editor);

  for (const block of emailBlocks(gatewayUrl)) {
    editor.Blocks.add(block.id, {
      label: block.label,
      category: block.category,
      media: `<i class="fa ${block.icon} fa-2x" aria-hidden="true"></i>`,
      content: expandSelfClosing(block.mjml),
    });
  }
  // The code view and imports are the console's own dialog (MJML code view) instead of the preset's.
  editor.Panels.removeButton('options', 'mjml-import');
  editor.Panels.removeButton('options', 'export-template');

  editor.on('component:add', (component: Component) => ownSocialIcons(component, gatewayUrl));
  const loaded = new Promise<void>((resolve) =>
    editor.onReady(() => {
      loadInto(editor, options.content);
      ownSocialIcons(editor.getWrapper()!, gatewayUrl);
      editor.UndoManager.clear();
      editor.Panels.getButton('views', 'open-blocks')?.set('active', true);
      editor.Canvas.getFrameEl()?.setAttribute('title', 'E-mail design canvas');
      // The side panel scrolls but holds nothing focusable (blocks are dragged): focusable itself,
      // so keyboard users can scroll it.
      const panel = options.container.querySelector('.gjs-pn-views-container');
      panel?.setAttribute('tabindex', '0');
      panel?.setAttribute('role', 'region');
      panel?.setAttribute('aria-label', 'Blocks, layers, styles and settings');
      // Every change counts: structure, styles and traits ('update'), and typing in a text ('component:input').
      editor.on('update', options.onChange);
      editor.on('component:input', options.onChange);
      resolve();
    }),
  );

  const designer: DesignerEditor = {
    async read() {
      const editing = editor.getEditing();
      const view = editing?.getView() as TextView | undefined;
      if (!editing || !view?.rteEnabled || !view.getContent) {
        return { mjml: editor.getHtml(), project: editor.getProjectData() as Record<string, unknown> };
      }
      // A text being edited reaches its component only when the editing ends, and anything that
      // syncs it earlier (getProjectData does) re-renders the text under the caret. So while a text is
      // being edited, the MJML is serialised with the text as it is on screen in place of the
      // component's own, and no project data is sent (null: the designer then reopens from the MJML).
      // When the editing ends the text is synced, which is a change: the next save has both.
      const live = await view.getContent();
      const model = editing as unknown as SerialisedModel;
      const { toHTML } = model;
      model.toHTML = function (this: SerialisedModel, opts?: object) {
        const html = toHTML.call(this, opts);
        const open = html.indexOf('>') + 1;
        const close = html.lastIndexOf('</');
        return open > 0 && close >= open ? html.slice(0, open) + live + html.slice(close) : html;
      };
      try {
        return { mjml: editor.getHtml(), project: null };
      } finally {
        Reflect.deleteProperty(model, 'toHTML');
      }
    },
    insertText(text) {
      const rte = editor.RichTextEditor.globalRte;
      if (!editor.getEditing() || !rte?.el) return false;
      insertTextAtCaret(rte.el, text);
      options.onChange();
      return true;
    },
    load(content) {
      loadInto(editor, content);
      ownSocialIcons(editor.getWrapper()!, gatewayUrl);
      editor.UndoManager.clear();
    },
    destroy() {
      editor.destroy();
    },
  };
  return loaded.then(() => designer);
}
