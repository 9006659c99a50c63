import { expandSelfClosing } from './mjml-source';

test.each([
  ['<mj-image src="a.png" />', '<mj-image src="a.png"></mj-image>'],
  ['<mj-spacer/>', '<mj-spacer></mj-spacer>'],
  [
    '<mj-attributes><mj-all font-family="A, B" /><mj-class name="muted" color="#5b6275" /></mj-attributes>',
    '<mj-attributes><mj-all font-family="A, B"></mj-all><mj-class name="muted" color="#5b6275"></mj-class></mj-attributes>',
  ],
  ['<mj-button href="https://x.io/?a=1&b=2">Go</mj-button>', '<mj-button href="https://x.io/?a=1&b=2">Go</mj-button>'],
  ['<mj-text>a<br />b</mj-text>', '<mj-text>a<br />b</mj-text>'],
  ["<mj-image alt='a / b' src='x.png'/>", "<mj-image alt='a / b' src='x.png'></mj-image>"],
  [
    '<mj-divider border-width="1px"\n  border-color="#ccc" />',
    '<mj-divider border-width="1px"\n  border-color="#ccc"></mj-divider>',
  ],
])('%s', (input, output) => {
  expect(expandSelfClosing(input)).toBe(output);
});
