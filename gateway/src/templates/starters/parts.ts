/**
 * The pieces every starter shares: the head (system fonts only, nothing fetched; colours that hold in
 * dark mode: `color-scheme` for the clients that honour it, `prefers-color-scheme` overrides for
 * Apple Mail and others, and colours that stay readable where a client inverts them itself), and
 * the footer with the postal address and the unsubscribe link (what marketing e-mails must carry).
 */
import { socialIconPath, type SocialIcon } from '../../contracts';

export interface StarterContext {
  /** The gateway's public address: the social icons are served from it. */
  publicUrl: string;
}

export const COLORS = {
  page: '#f3f4f8',
  card: '#ffffff',
  ink: '#1c1f2a',
  muted: '#5b6275',
  accent: '#5b4cf0',
  accentSoft: '#eeecff',
  line: '#e3e5ec',
} as const;

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** The head of every starter: defaults, and the dark-mode overrides keyed by the dm-* classes below (the subject is the page title). */
export function head(): string {
  return `<mj-head>
    <mj-raw>
      <meta name="color-scheme" content="light dark">
      <meta name="supported-color-schemes" content="light dark">
    </mj-raw>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
      <mj-text font-size="16px" line-height="1.6" color="${COLORS.ink}" css-class="dm-text" />
      <mj-button background-color="${COLORS.accent}" color="#ffffff" font-size="16px" font-weight="600" border-radius="8px" inner-padding="14px 28px" />
      <mj-section background-color="${COLORS.card}" css-class="dm-card" />
      <mj-divider border-color="${COLORS.line}" border-width="1px" css-class="dm-line" />
      <mj-class name="muted" color="${COLORS.muted}" css-class="dm-muted" />
      <mj-class name="page" background-color="${COLORS.page}" css-class="dm-page" />
      <mj-class name="soft" background-color="${COLORS.accentSoft}" css-class="dm-soft" />
      <mj-class name="accent" color="${COLORS.accent}" css-class="dm-accent" />
    </mj-attributes>
    <mj-style>
      :root { color-scheme: light dark; supported-color-schemes: light dark; }
      .dm-text a { color: ${COLORS.accent}; }
      .dm-muted a { color: ${COLORS.muted}; }
      @media (prefers-color-scheme: dark) {
        body, .dm-body, div[role="article"], .dm-page, .dm-page > table { background: #0e1016 !important; background-color: #0e1016 !important; }
        .dm-card, .dm-card > table { background: #181b24 !important; background-color: #181b24 !important; }
        .dm-soft, .dm-soft > table { background: #232042 !important; background-color: #232042 !important; }
        .dm-text div, .dm-text p, .dm-text h1, .dm-text h2, .dm-text h3, .dm-text li, .dm-text td { color: #e7e9f0 !important; }
        .dm-muted div, .dm-muted p { color: #a5abbd !important; }
        .dm-accent div { color: #a89fff !important; }
        .dm-text a, .dm-muted a { color: #a89fff !important; }
        .dm-line p { border-top-color: #2d3140 !important; }
      }
    </mj-style>
  </mj-head>`;
}

/** The community's name as the wordmark at the top, with a "View in browser" link. */
export function masthead(): string {
  return `<mj-section mj-class="page" padding="24px 16px 8px">
      <mj-column width="60%">
        <mj-text font-size="20px" font-weight="700" padding="0 8px">{{ community.name }}</mj-text>
      </mj-column>
      <mj-column width="40%">
        <mj-text mj-class="muted" align="right" font-size="12px" padding="6px 8px 0"><a href="{{ view_in_browser_url }}">View in browser</a></mj-text>
      </mj-column>
    </mj-section>`;
}

function socialElement(ctx: StarterContext, name: SocialIcon, href: string, label: string): string {
  return `<mj-social-element name="${name}-noshare" href="${href}" src="${ctx.publicUrl}${socialIconPath(name)}" alt="${label}" title="${label}"></mj-social-element>`;
}

/** Social links, the reason for the e-mail, the postal address, unsubscribe and view in browser. */
export function footer(ctx: StarterContext): string {
  return `<mj-section mj-class="page" padding="24px 16px 40px">
      <mj-column>
        <mj-social mode="horizontal" align="center" icon-size="24px" border-radius="6px" padding="0 0 16px">
          ${socialElement(ctx, 'x', 'https://x.com/', 'X')}
          ${socialElement(ctx, 'discord', 'https://discord.com/', 'Discord')}
          ${socialElement(ctx, 'telegram', 'https://t.me/', 'Telegram')}
          ${socialElement(ctx, 'web', '{{ community.url }}', 'Community page')}
        </mj-social>
        <mj-text mj-class="muted" align="center" font-size="12px" line-height="1.6" padding="0 24px">
          You receive this e-mail because you joined {{ community.name }}.<br />
          {{ community.postal_address }}<br />
          <a href="{{ unsubscribe_url }}">Unsubscribe</a> &middot; <a href="{{ view_in_browser_url }}">View in browser</a>
        </mj-text>
      </mj-column>
    </mj-section>`;
}

/** A whole document: head, the page background, masthead, the starter's sections and the footer. */
export function document(ctx: StarterContext, sections: string): string {
  return `<mjml lang="en">
  ${head()}
  <mj-body background-color="${COLORS.page}" width="600px" css-class="dm-body">
    ${masthead()}
    ${sections}
    ${footer(ctx)}
  </mj-body>
</mjml>
`;
}
