/**
 * The starter gallery (GET /v1/templates/starters): designs made for web3 communities, responsive
 * (columns stack on phones), readable in dark mode, using merge tags for the community's own name,
 * page and postal address, and no image or font from outside (the social icons are the gateway's).
 * And the blank design a template starts from without a starter.
 */
import type { TemplateKind, TemplateStarter } from '../../contracts';
import { announcement } from './announcement';
import { eventInvite } from './event-invite';
import { newsletter } from './newsletter';
import { document, head, type StarterContext } from './parts';
import type { StarterDesign } from './starter';
import { tokenAirdrop } from './token-airdrop';

export type { StarterContext } from './parts';
export type { StarterDesign } from './starter';

export const STARTERS: Record<
  TemplateStarter,
  { name: string; description: string; design: (ctx: StarterContext) => StarterDesign }
> = {
  newsletter: {
    name: 'Newsletter',
    description: 'A monthly round-up: governance, ecosystem and events, key figures and a call to join the discussion.',
    design: newsletter,
  },
  announcement: {
    name: 'Announcement',
    description: 'One big piece of news, what it brings and one button.',
    design: announcement,
  },
  'token-airdrop': {
    name: 'Token airdrop',
    description: 'Tells holders they are eligible, shows their wallet, the three claim steps and a safety note.',
    design: tokenAirdrop,
  },
  'event-invite': {
    name: 'Event invite',
    description: 'An invitation to a community call or meetup: date, time, place, agenda and RSVP.',
    design: eventInvite,
  },
};

const BLANK_TEXT = `<mj-section padding="32px 16px">
      <mj-column>
        <mj-text>Hi {{ contact.first_name | default: "there" }},</mj-text>
        <mj-text>Start writing here.</mj-text>
      </mj-column>
    </mj-section>`;

/** A new template without a starter: one text block, with the footer when it is a marketing e-mail. */
export function blankDesign(ctx: StarterContext, kind: TemplateKind): StarterDesign {
  const mjml =
    kind === 'marketing'
      ? document(ctx, BLANK_TEXT)
      : `<mjml lang="en">\n  ${head()}\n  <mj-body background-color="#ffffff" width="600px">\n    ${BLANK_TEXT}\n  </mj-body>\n</mjml>\n`;
  return { subject: '', preview_text: '', mjml };
}
