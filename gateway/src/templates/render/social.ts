/**
 * Social icons from the gateway (`/static/social/<name>.png`), never from the MJML authors' host:
 * the MJML social element is replaced by one that knows every network of SOCIAL_ICONS (MJML's own
 * and the web3 communities' ones: Discord, Telegram, Farcaster, ...) and its colour, and after
 * compiling the authors' host is swapped for the gateway's in the HTML (which also catches icons
 * whose `src` names that host, as the designer's MJML may).
 */
import { SocialElement } from 'mjml-social';
import { SOCIAL_ICON_COLORS, SOCIAL_ICONS, type SocialIcon } from '../../contracts';

/** Where MJML's social element takes its icons from (mjml-social 5). */
export const MJML_ICON_HOST = 'https://www.mailjet.com/images/theme/v1/icons/ico-social/';

/** The gateway's own icons, by file name (`x.png`; MJML's `twitter-x.png` and `google-plus.png` too). */
export function socialIconBase(publicUrl: string): string {
  return `${publicUrl}/static/social/`;
}

function isSocialIcon(name: string): name is SocialIcon {
  return (SOCIAL_ICONS as readonly string[]).includes(name);
}

class GatewaySocialElement extends SocialElement {
  static componentName = 'mj-social-element';

  override getSocialAttributes(): Record<string, unknown> {
    const attributes = super.getSocialAttributes();
    const name = this.getAttribute('name');
    const network = typeof name === 'string' ? name.replace(/-noshare$/, '') : '';
    if (!isSocialIcon(network)) return attributes;
    return {
      ...attributes,
      src: this.getAttribute('src') || `${MJML_ICON_HOST}${network}.png`,
      'background-color': this.getAttribute('background-color') || SOCIAL_ICON_COLORS[network],
    };
  }
}

/** An MJML preset (mjml2html's `presets` option): this compile only, no global registration. */
export const SOCIAL_PRESET = { components: [GatewaySocialElement], dependencies: {} };

/** The compiled HTML with the MJML authors' icon host replaced by the gateway's. */
export function moveIconHost(html: string, publicUrl: string): string {
  return html.split(MJML_ICON_HOST).join(socialIconBase(publicUrl));
}
