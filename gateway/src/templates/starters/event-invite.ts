/** Starter: an event invitation (what, when, where, the agenda, RSVP). */
import { document, type StarterContext } from './parts';
import type { StarterDesign } from './starter';

function fact(label: string, value: string): string {
  return `<mj-column width="33.33%">
        <mj-text mj-class="muted" align="center" font-size="12px" font-weight="700" letter-spacing="1px" padding="16px 8px 0">${label}</mj-text>
        <mj-text align="center" font-weight="700" padding="4px 8px 16px">${value}</mj-text>
      </mj-column>`;
}

export function eventInvite(ctx: StarterContext): StarterDesign {
  return {
    subject: "You're invited: {{ community.name }} community call",
    preview_text: 'Join the core team live. Save your seat.',
    mjml: document(
      ctx,
      `<mj-section padding="40px 16px 16px" border-radius="12px 12px 0 0">
      <mj-column>
        <mj-text align="center" font-size="12px" font-weight="700" mj-class="accent" letter-spacing="2px">YOU ARE INVITED</mj-text>
        <mj-text align="center" font-size="30px" font-weight="800" line-height="1.2" padding="8px 24px 0">Community call #8</mj-text>
        <mj-text align="center" padding="12px 24px 0">Hi {{ contact.first_name | default: "there" }}, join the {{ community.name }} core team for an hour of updates, demos and your questions.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section mj-class="soft" padding="0 16px">
      ${fact('DATE', 'Thursday, June 4')}
      ${fact('TIME', '17:00 UTC')}
      ${fact('WHERE', 'Online, on Discord')}
    </mj-section>
    <mj-section padding="16px 16px 0">
      <mj-column>
        <mj-text font-size="18px" font-weight="700" padding="8px 24px 0">On the agenda</mj-text>
        <mj-text padding="4px 24px 0">
          <ul style="padding-left: 20px; margin: 8px 0;">
            <li>What shipped this quarter</li>
            <li>A live demo of the new dashboard</li>
            <li>The next governance proposals</li>
            <li>Open questions from the community</li>
          </ul>
        </mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="8px 16px 40px" border-radius="0 0 12px 12px">
      <mj-column>
        <mj-button href="{{ community.url }}">Save your seat</mj-button>
        <mj-text mj-class="muted" align="center" font-size="14px" padding="12px 24px 0">Can't make it? The recording will be on our community page.</mj-text>
      </mj-column>
    </mj-section>`,
    ),
  };
}
