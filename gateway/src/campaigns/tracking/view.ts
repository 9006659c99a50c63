/**
 * View in browser (spec section 2, engagement/emails: "a view-in-browser page"): the recipient's
 * e-mail rendered again as it was sent (the campaign's template version, the contact's merge values
 * now, the same click redirects and UTM parameters), without the open pixel.
 */
import { sql } from 'drizzle-orm';
import type { UtmParameters } from '../../contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/index';
import { HttpError } from '../../errors';
import { queryRows, textOf, intOf } from '../../lib/raw-sql';
import { contactScope, loadCompiled, loadMergeContext, renderOffLoop, type ContactInfo } from '../../templates/index';
import { campaignSources } from '../campaign-preview';
import { decorateHtml } from './decorate';
import { trackingUrls } from './links';
import type { TrackedRecipient } from './record';

/**
 * The policy of the page: the HTML is the tenant's, so it runs sandboxed (an opaque origin, no
 * script, no forms, no plugins); images and inline styles as e-mails use them; links open normally.
 */
export const VIEW_CSP = [
  "default-src 'none'",
  'img-src https: http: data:',
  "style-src 'unsafe-inline' https:",
  'font-src https: data:',
  "script-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  'sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
].join('; ');

interface ViewCampaign {
  subject: string;
  previewText: string;
  templateId: string | null;
  templateVersion: number | null;
  trackClicks: boolean;
  utm: UtmParameters;
}

function utmOf(value: unknown): UtmParameters {
  const raw: Record<string, unknown> =
    typeof value === 'string'
      ? (JSON.parse(value) as Record<string, unknown>)
      : ((value ?? {}) as Record<string, unknown>);
  const s = (k: string) => (typeof raw[k] === 'string' ? raw[k] : '');
  return { source: s('source'), medium: s('medium'), campaign: s('campaign'), term: s('term'), content: s('content') };
}

/** The recipient's e-mail as HTML; null when it cannot be rendered any more (template or version gone). */
export async function renderForBrowser(db: Database, config: Config, r: TrackedRecipient): Promise<string | null> {
  const [row] = await queryRows(
    db,
    sql`select subject, preview_text, template_id, template_version, track_clicks, utm
          from campaigns where id = ${r.campaignId}`,
  );
  if (!row) return null;
  const campaign: ViewCampaign = {
    subject: textOf(row, 'subject') ?? '',
    previewText: textOf(row, 'preview_text') ?? '',
    templateId: textOf(row, 'template_id'),
    templateVersion: row.template_version === null ? null : intOf(row, 'template_version'),
    trackClicks: row.track_clicks === true,
    utm: utmOf(row.utm),
  };
  if (!campaign.templateId) return null;
  const publicUrl = config.onboarding.publicUrl;
  let loaded;
  try {
    loaded = await loadCompiled({ db, publicUrl }, r.tenantId, campaign.templateId, campaign.templateVersion);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) return null;
    throw error;
  }
  const merge = await loadMergeContext(db, r.tenantId, publicUrl);
  const contact = await contactOf(db, r);
  const { trackingUrl, trackingSecret } = config.campaigns;
  const urls = trackingUrls(trackingUrl, trackingSecret, r.id);
  const scope = contactScope(contact, merge.attributes, merge.community, {
    unsubscribe_url: urls.unsubscribe,
    view_in_browser_url: urls.view,
  });
  // The campaign's own subject and preview text, as in the e-mail sent (campaign-preview.ts), rendered
  // in the off-loop pool.
  const message = await renderOffLoop(campaignSources(loaded.version, campaign), scope);
  return decorateHtml(message.html, urls, { trackOpens: false, trackClicks: campaign.trackClicks, utm: campaign.utm });
}

/** The contact's merge values; a deleted contact shows only the address it was sent to. */
async function contactOf(db: Database, r: TrackedRecipient): Promise<ContactInfo> {
  if (r.contactId) {
    const [row] = await queryRows(
      db,
      sql`select email, wallet, first_name, last_name, attributes from contacts
           where id = ${r.contactId} and tenant_id = ${r.tenantId}`,
    );
    if (row) {
      const attributes = typeof row.attributes === 'string' ? (JSON.parse(row.attributes) as unknown) : row.attributes;
      return {
        email: textOf(row, 'email'),
        wallet: textOf(row, 'wallet'),
        first_name: textOf(row, 'first_name') ?? '',
        last_name: textOf(row, 'last_name') ?? '',
        attributes:
          typeof attributes === 'object' && attributes !== null ? (attributes as Record<string, unknown>) : {},
      };
    }
  }
  return { email: r.address, wallet: null, first_name: '', last_name: '', attributes: {} };
}
