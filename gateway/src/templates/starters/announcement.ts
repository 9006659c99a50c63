/** Starter: an announcement (one big piece of news, what it brings, one call to action). */
import { document, type StarterContext } from './parts';
import type { StarterDesign } from './starter';

function point(title: string, body: string): string {
  return `<mj-text padding="12px 24px 0"><strong>${title}</strong><br />${body}</mj-text>`;
}

export function announcement(ctx: StarterContext): StarterDesign {
  return {
    subject: 'Big news from {{ community.name }}',
    preview_text: 'Something new is live, and you can try it today.',
    mjml: document(
      ctx,
      `<mj-section mj-class="soft" padding="40px 16px" border-radius="12px 12px 0 0">
      <mj-column>
        <mj-text align="center" font-size="12px" font-weight="700" mj-class="accent" letter-spacing="2px">ANNOUNCEMENT</mj-text>
        <mj-text align="center" font-size="32px" font-weight="800" line-height="1.2" padding="8px 24px 0">Version 2 is live</mj-text>
        <mj-text align="center" padding="12px 24px 0">Hi {{ contact.first_name | default: "there" }}, after months of building in public, the new release of {{ community.name }} is out.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="16px 16px 0">
      <mj-column>
        ${point('Faster', 'Transactions confirm in seconds, with lower fees on every network we support.')}
        ${point('Safer', 'Independent auditors reviewed every contract; their reports are public.')}
        ${point('Yours', 'Every feature in this release came from a community proposal.')}
      </mj-column>
    </mj-section>
    <mj-section padding="24px 16px 40px" border-radius="0 0 12px 12px">
      <mj-column>
        <mj-button href="{{ community.url }}">See what is new</mj-button>
        <mj-text mj-class="muted" align="center" font-size="14px" padding="16px 24px 0">Questions? Reply to this e-mail or ask in the community channels below.</mj-text>
      </mj-column>
    </mj-section>`,
    ),
  };
}
