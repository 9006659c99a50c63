import type { Area } from '../area';
import { templateRoutes } from './routes';
import { staticRoutes } from './static-routes';

/**
 * Templates (spec section 2: engagement/templates and the template designer): MJML designs stored
 * per tenant with their versions, starters, merge tags, server previews and test sends; and the
 * social icons e-mails load from the gateway.
 */
export const templatesArea: Area = {
  routes: async (app) => {
    await app.register(templateRoutes, { prefix: '/v1/templates' });
    await app.register(staticRoutes);
  },
};

// What other areas use from this one: the renderer. A version is loaded compiled (`loadCompiled`) and
// rendered in the off-loop pool: one recipient with `renderOffLoop`; for many, a task of the pool
// (off-loop-tasks.ts) parses the sources once (`preparedHere`), binds them to the send (`bindSend`: the
// community's outputs merged once), then per recipient builds a scope (`contactScope`) and
// `renderMessage`s it: no MJML, no parsing per recipient.
export { variablesUsed } from './merge-tags';
export { onTemplatesChanged } from './template-changes';
export {
  loadCompiled,
  loadTemplate,
  versionSources,
  type CompiledTemplate,
  type LoadedTemplate,
  type TemplatesContext,
} from './template-cache';
export {
  failedOutcome,
  preparedHere,
  renderOffLoop,
  sourcesKey,
  type RenderOutcome,
  type TemplateSources,
} from './render/render-task';
export {
  bindSend,
  renderMessage,
  prepareTemplate,
  type PreparedTemplate,
  type RenderedMessage,
} from './render/prepared';
export {
  TemplateRenderError,
  RENDER_LIMITS,
  LiquidSyntaxError,
  describeLiquidError,
  TOO_MANY_STEPS,
} from './render/liquid';
export { compileContent } from './render/compile-task';
export {
  compileHere,
  compiledWith,
  TemplateInputError,
  withPreviewText,
  withSubjectTitle,
  type CompiledContent,
  type TemplateContent,
} from './render/compile';
export {
  contactScope,
  sampleScope,
  sampleLinks,
  type AttributeInfo,
  type CommunityInfo,
  type ContactInfo,
  type MergeScope,
  type MessageLinks,
} from './merge-tags';
export { loadContact, loadMergeContext, type MergeContext } from './merge-context';
export { TEST_SUBJECT_PREFIX } from './template-preview';
// Usage: campaigns and automations register what uses a template (delete refused, "used by").
export {
  registerTemplateDeleteGuard,
  registerTemplateUsage,
  type TemplateDeleteGuard,
  type TemplateUsageSource,
} from './template-usage';
export { STARTERS } from './starters/index';
// The demo data's templates (src/seed.ts).
export { createTemplate, updateTemplate } from './template-save';
