/** Starter: a monthly community newsletter (governance, ecosystem, events, figures in two columns). */
import { document, type StarterContext } from './parts';
import type { StarterDesign } from './starter';

function story(kicker: string, title: string, body: string, link: string): string {
  return `<mj-section padding="8px 16px">
      <mj-column>
        <mj-text font-size="12px" font-weight="700" mj-class="accent" letter-spacing="1px" padding="16px 16px 0">${kicker}</mj-text>
        <mj-text font-size="20px" font-weight="700" line-height="1.3" padding="4px 16px 0">${title}</mj-text>
        <mj-text padding="8px 16px 0">${body}</mj-text>
        <mj-text padding="8px 16px 16px"><a href="${link}">Read more &rarr;</a></mj-text>
        <mj-divider padding="0 16px" />
      </mj-column>
    </mj-section>`;
}

export function newsletter(ctx: StarterContext): StarterDesign {
  return {
    subject: '{{ community.name }} monthly: what happened this month',
    preview_text: 'Governance results, new partners and the date of the next community call.',
    mjml: document(
      ctx,
      `<mj-section padding="32px 16px 8px" border-radius="12px 12px 0 0">
      <mj-column>
        <mj-text font-size="28px" font-weight="800" line-height="1.25" padding="0 16px">This month in {{ community.name }}</mj-text>
        <mj-text padding="12px 16px 0">Hi {{ contact.first_name | default: "there" }}, here is what the community built, voted on and shipped since the last issue.</mj-text>
      </mj-column>
    </mj-section>
    ${story(
      'GOVERNANCE',
      'Proposal 12 passed: a grants round for builders',
      'Holders voted to fund a second grants round. Applications open next week; small teams and first-time builders are welcome.',
      '{{ community.url }}',
    )}
    ${story(
      'ECOSYSTEM',
      'Three new partners joined the network',
      'Wallet support, a bridge and an analytics dashboard now work with our token. The docs have step-by-step guides for each.',
      '{{ community.url }}',
    )}
    ${story(
      'COMMUNITY',
      'Next community call: first Thursday of the month',
      'Bring your questions for the core team. The call is recorded for those who cannot join live.',
      '{{ community.url }}',
    )}
    <mj-section padding="8px 16px 0">
      <mj-column width="50%">
        <mj-text align="center" font-size="32px" font-weight="800" mj-class="accent" padding="16px 16px 0">12,480</mj-text>
        <mj-text mj-class="muted" align="center" font-size="14px" padding="0 16px 16px">members</mj-text>
      </mj-column>
      <mj-column width="50%">
        <mj-text align="center" font-size="32px" font-weight="800" mj-class="accent" padding="16px 16px 0">7</mj-text>
        <mj-text mj-class="muted" align="center" font-size="14px" padding="0 16px 16px">proposals voted</mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="8px 16px 32px" border-radius="0 0 12px 12px">
      <mj-column>
        <mj-button href="{{ community.url }}">Join the discussion</mj-button>
      </mj-column>
    </mj-section>`,
    ),
  };
}
