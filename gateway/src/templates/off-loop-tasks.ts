// What the off-loop pool's threads use of the templates area (src/off-loop-worker.ts and the tasks of
// other areas that render): the renderer without the area's routes and storage, so a thread loads
// only what it runs.
export { renderHere, renderTask, preparedHere, sourcesKey, failedOutcome } from './render/render-task';
export { compileInThread, compileTask } from './render/compile-task';
export type { RenderOutcome, TemplateSources } from './render/render-task';
export { bindSend, renderMessage, type PreparedTemplate, type RenderedMessage } from './render/prepared';
export { LiquidSyntaxError, TemplateRenderError } from './render/liquid';
export { contactScope, type MergeScope } from './merge-tags';
export type { MergeContext } from './merge-context';
