/**
 * The designer's blocks, as MJML. Nothing in them is fetched from outside the console: the image
 * placeholder is an inline SVG (replace it by uploading an image), the social icons come from the
 * gateway, and no web font is named (mjml's default font stack ends in system fonts).
 */

import { SOCIAL_ICONS, SOCIAL_ICON_COLORS, socialIconPath, type SocialIcon } from '@console/shared/contracts';

/** The networks of the social block: where web3 communities are. */
export const SOCIAL_NETWORKS: readonly { name: SocialIcon; label: string; href: string }[] = [
  { name: 'x', label: 'X', href: 'https://x.com/' },
  { name: 'discord', label: 'Discord', href: 'https://discord.com/' },
  { name: 'telegram', label: 'Telegram', href: 'https://t.me/' },
  { name: 'github', label: 'GitHub', href: 'https://github.com/' },
];

const isSocialIcon = (name: string): name is SocialIcon => (SOCIAL_ICONS as readonly string[]).includes(name);

/**
 * A network's icon and colour as the gateway serves them (public: recipients' mail clients load it),
 * the 'web' icon for a network it does not know.
 */
export function socialIcon(gatewayUrl: string, network: string): { src: string; color: string } {
  const name: SocialIcon = isSocialIcon(network) ? network : 'web';
  return { src: `${gatewayUrl.replace(/\/$/, '')}${socialIconPath(name)}`, color: SOCIAL_ICON_COLORS[name] };
}

/** A grey 600×300 placeholder with 'Image' on it, inline (no image service). */
export const IMAGE_PLACEHOLDER =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300" viewBox="0 0 600 300">' +
      '<rect width="600" height="300" fill="#e2e8f0"/>' +
      '<text x="300" y="160" font-family="Arial, sans-serif" font-size="28" fill="#475569" text-anchor="middle">Image</text>' +
      '</svg>',
  );

/** The footer every marketing e-mail needs (sender's identity and address, unsubscribe link), as merge tags. */
export const FOOTER_MJML = `<mj-section padding="16px 0">
  <mj-column>
    <mj-text align="center" font-size="12px" line-height="1.5" color="#475569">
      {{ community.name }}<br />{{ community.postal_address }}<br />
      <a href="{{ unsubscribe_url }}" style="color:#475569;">Unsubscribe</a> ·
      <a href="{{ view_in_browser_url }}" style="color:#475569;">View in browser</a>
    </mj-text>
  </mj-column>
</mj-section>`;

export interface EmailBlock {
  id: string;
  label: string;
  category: 'Layout' | 'Content' | 'Footer';
  /** Font Awesome 4.7 icon class (the font is bundled). */
  icon: string;
  mjml: string;
}

const column = (text: string) => `<mj-column><mj-text>${text}</mj-text></mj-column>`;

export function emailBlocks(gatewayUrl: string): EmailBlock[] {
  const social = SOCIAL_NETWORKS.map((n) => {
    const icon = socialIcon(gatewayUrl, n.name);
    return `<mj-social-element name="${n.name}" href="${n.href}" src="${icon.src}" background-color="${icon.color}">${n.label}</mj-social-element>`;
  }).join('');
  return [
    {
      id: 'section-1',
      label: '1 column',
      category: 'Layout',
      icon: 'fa-square-o',
      mjml: `<mj-section>${column('Write something here.')}</mj-section>`,
    },
    {
      id: 'section-2',
      label: '2 columns',
      category: 'Layout',
      icon: 'fa-columns',
      mjml: `<mj-section>${column('Left column.')}${column('Right column.')}</mj-section>`,
    },
    {
      id: 'section-3',
      label: '3 columns',
      category: 'Layout',
      icon: 'fa-th',
      mjml: `<mj-section>${column('First.')}${column('Second.')}${column('Third.')}</mj-section>`,
    },
    {
      id: 'text',
      label: 'Text',
      category: 'Content',
      icon: 'fa-font',
      mjml: '<mj-text font-size="16px" line-height="1.5">Write something here.</mj-text>',
    },
    {
      id: 'image',
      label: 'Image',
      category: 'Content',
      icon: 'fa-picture-o',
      mjml: `<mj-image src="${IMAGE_PLACEHOLDER}" alt="" />`,
    },
    {
      id: 'button',
      label: 'Button',
      category: 'Content',
      icon: 'fa-hand-pointer-o',
      mjml: '<mj-button href="https://" background-color="#6b04fd">Open</mj-button>',
    },
    {
      id: 'divider',
      label: 'Divider',
      category: 'Content',
      icon: 'fa-minus',
      mjml: '<mj-divider border-width="1px" border-color="#cbd5e1" />',
    },
    { id: 'spacer', label: 'Spacer', category: 'Content', icon: 'fa-arrows-v', mjml: '<mj-spacer height="24px" />' },
    {
      id: 'social',
      label: 'Social links',
      category: 'Content',
      icon: 'fa-share-alt',
      mjml: `<mj-social icon-size="24px" mode="horizontal">${social}</mj-social>`,
    },
    { id: 'footer', label: 'Footer', category: 'Footer', icon: 'fa-address-card-o', mjml: FOOTER_MJML },
  ];
}
