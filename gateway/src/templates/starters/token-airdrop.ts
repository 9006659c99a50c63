/** Starter: a token airdrop (eligibility, the claim window, three steps, a safety note). */
import { document, type StarterContext } from './parts';
import type { StarterDesign } from './starter';

function step(n: number, title: string, body: string): string {
  return `<mj-column width="33.33%">
        <mj-text align="center" font-size="28px" font-weight="800" mj-class="accent" padding="16px 12px 0">${n}</mj-text>
        <mj-text align="center" font-weight="700" padding="4px 12px 0">${title}</mj-text>
        <mj-text mj-class="muted" align="center" font-size="14px" padding="4px 12px 16px">${body}</mj-text>
      </mj-column>`;
}

export function tokenAirdrop(ctx: StarterContext): StarterDesign {
  return {
    subject: '{{ contact.first_name | default: "You" }}, your {{ community.name }} airdrop is ready to claim',
    preview_text: 'Your wallet is eligible. Claim before the window closes.',
    mjml: document(
      ctx,
      `<mj-section mj-class="soft" padding="40px 16px 32px" border-radius="12px 12px 0 0">
      <mj-column>
        <mj-text align="center" font-size="12px" font-weight="700" mj-class="accent" letter-spacing="2px">TOKEN AIRDROP</mj-text>
        <mj-text align="center" font-size="30px" font-weight="800" line-height="1.2" padding="8px 24px 0">You are eligible for the airdrop</mj-text>
        <mj-text align="center" padding="12px 24px 0">Thank you for being part of {{ community.name }}. Tokens are reserved for this wallet:</mj-text>
        <mj-text align="center" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" font-size="14px" padding="8px 24px 0"><strong>{{ contact.wallet | default: "the wallet you connected" }}</strong></mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="8px 16px 0">
      ${step(1, 'Connect', 'Open the claim page and connect the wallet above.')}
      ${step(2, 'Sign', 'Sign one message to prove it is yours. No gas for this step.')}
      ${step(3, 'Claim', 'Confirm the claim. Tokens arrive in a few minutes.')}
    </mj-section>
    <mj-section padding="8px 16px 0">
      <mj-column>
        <mj-button href="{{ community.url }}">Claim your tokens</mj-button>
        <mj-text mj-class="muted" align="center" font-size="14px" padding="12px 24px 0">The claim window is open for 30 days.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="16px 16px 40px" border-radius="0 0 12px 12px">
      <mj-column>
        <mj-divider padding="0 16px 16px" />
        <mj-text font-size="14px" padding="0 24px"><strong>Stay safe.</strong> We will never ask for your seed phrase or private key, and we never send you tokens first. Only use the link in this e-mail or on our community page.</mj-text>
      </mj-column>
    </mj-section>`,
    ),
  };
}
