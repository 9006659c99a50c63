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
import { applyImageChoice, type ImageChoice } from './image-choice';
import { CHIP_CSS, decorateMergeTags, undecorateMergeTags, type DescribeMergeTag } from './merge-tag-chips';

export interface EditorContent {
  mjml: string;
  project: Record<string, unknown> | null;
}

export interface DesignerEditorOptions {
  container: HTMLElement;
  content: EditorContent;
  gatewayUrl: string;
  /** The console's image dialog for an element's image: the choice, or null when dismissed. */
  pickImage: (current: ImageChoice | null) => Promise<ImageChoice | null>;
  /** Merge tags' labels and sample values (the catalogue's) for their chips in the canvas; null until known. */
  mergeTags: () => DescribeMergeTag | null;
  onChange: () => void;
}

export interface DesignerEditor {
  /** The design as MJML (a text being typed included) and as the editor's project data (null while a text is being edited). */
  read(): Promise<EditorContent>;
  /** Insert text at the caret of the text being edited; false when no text is being edited. */
  insertText(text: string): boolean;
  /** Draws the canvas's merge tag chips again (the catalogue has changed). */
  refreshMergeTags(): void;
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

/** GrapesJS's command for choosing an asset (typed as any command: ours answers nothing). */
const OPEN_ASSETS: string = 'open-assets';

/** What `open-assets` is given by whatever asks for an image (an image's double-click, a file property). */
interface OpenAssetsOptions {
  target?: Component;
  select?: (asset: unknown, complete: boolean) => void;
}

/** The image an element shows now, unless it is the placeholder (then there is nothing to offer). */
function currentImage(target: Component | undefined): ImageChoice | null {
  if (!target) return null;
  const attributes = target.getAttributes();
  const src = String(target.get('src') ?? attributes.src ?? '');
  if (!src || src === IMAGE_PLACEHOLDER) return null;
  return { src, alt: String(attributes.alt ?? '') };
}

/**
 * Wherever the editor asks for an image (double-clicking an image, a style's image property), the
 * console's accessible image dialog opens in place of GrapesJS's asset manager (which is not a
 * dialog to assistive technology, chooses on a double-click only and never asks for alt text).
 */
function ownImageDialog(editor: Editor, pickImage: DesignerEditorOptions['pickImage']) {
  editor.Commands.add(OPEN_ASSETS, {
    run(ed: Editor, _sender: unknown, opts: OpenAssetsOptions = {}) {
      const target = opts.target;
      const isImage = target?.is('image') === true || target?.get('type') === 'mj-image';
      void pickImage(isImage ? currentImage(target) : null).then((choice) => {
        if (!choice) return;
        if (target && isImage) applyImageChoice(target, choice);
        else opts.select?.(ed.AssetManager.add({ src: choice.src }), true);
      });
    },
  });
}

/**
 * Merge tags show as chips with sample values in the canvas (merge-tag-chips.ts): drawn after every
 * change of the canvas, except in the text being edited, which is made plain before GrapesJS reads it
 * (the double-click that starts editing, caught first) and when its editing starts.
 */
function showMergeTagChips(
  editor: Editor,
  mergeTags: () => DescribeMergeTag | null,
): { refresh(): void; stop(): void } {
  const doc = editor.Canvas.getDocument();
  const body = editor.Canvas.getBody();
  if (!doc || !body) return { refresh() {}, stop() {} };
  const style = doc.createElement('style');
  style.textContent = CHIP_CSS;
  doc.head.append(style);
  let scheduled = 0;
  const observer = new MutationObserver(() => schedule());
  const observe = () => observer.observe(body, { childList: true, subtree: true, characterData: true });
  const draw = () => {
    scheduled = 0;
    observer.disconnect();
    try {
      const describe = mergeTags();
      if (describe) decorateMergeTags(body, describe);
    } finally {
      observer.takeRecords();
      observe();
    }
  };
  const schedule = () => {
    if (!scheduled) scheduled = requestAnimationFrame(draw);
  };
  const plain = (root: Element) => {
    observer.disconnect();
    undecorateMergeTags(root);
    observer.takeRecords();
    observe();
  };
  const onDoubleClick = (event: Event) => {
    if (event.target instanceof Node) plain(body);
  };
  const onEditing = (view: { el?: Element } | undefined) => {
    if (view?.el) plain(view.el);
  };
  doc.addEventListener('dblclick', onDoubleClick, true);
  editor.on('rte:enable', onEditing);
  draw();
  return {
    refresh() {
      plain(body);
      draw();
    },
    stop() {
      cancelAnimationFrame(scheduled);
      observer.disconnect();
      doc.removeEventListener('dblclick', onDoubleClick, true);
      editor.off('rte:enable', onEditing);
    },
  };
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
    // Images are chosen in the console's image dialog (ownImageDialog): nothing is uploaded by GrapesJS.
    assetManager: { assets: [], embedAsBase64: false, upload: false, dropzone: false },
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
  ownImageDialog(editor, options.pickImage);

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
  let chips = { refresh() {}, stop() {} };
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
      chips = showMergeTagChips(editor, options.mergeTags);
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
    refreshMergeTags() {
      chips.refresh();
    },
    load(content) {
      loadInto(editor, content);
      ownSocialIcons(editor.getWrapper()!, gatewayUrl);
      editor.UndoManager.clear();
    },
    destroy() {
      chips.stop();
      editor.destroy();
    },
  };
  return loaded.then(() => designer);
}
