import { API_KEY_PLACEHOLDER, buildSnippets, sampleData } from './snippets';

describe('sampleData', () => {
  it.each([
    [[], {}],
    [['amount'], { amount: '<amount>' }],
    [
      ['order.id', 'order.total', 'amount'],
      { order: { id: '<order.id>', total: '<order.total>' }, amount: '<amount>' },
    ],
  ])('%j', (variables, expected) => expect(sampleData(variables)).toEqual(expected));
});

describe('buildSnippets', () => {
  const snippets = buildSnippets({
    gatewayUrl: 'https://api.example.org/',
    templateId: 't-1',
    variables: ['order.id', 'amount'],
  });

  it('calls the send endpoint with the placeholder key and an idempotency key in each language', () => {
    for (const text of Object.values(snippets)) {
      expect(text).toContain('https://api.example.org/v1/transactional/send');
      expect(text).toContain('Idempotency-Key');
      expect(text).toContain('"template_id": "t-1"');
      expect(text).toContain('"id": "<order.id>"');
      expect(text).toContain('"amount": "<amount>"');
    }
    expect(snippets.curl).toContain(`Bearer ${API_KEY_PLACEHOLDER}`);
    expect(snippets.javascript).toContain('process.env.CONSOLE_API_KEY');
    expect(snippets.python).toContain("os.environ['CONSOLE_API_KEY']");
  });

  it('gives valid JSON to curl even when a value holds a quote', () => {
    const quoted = buildSnippets({ gatewayUrl: 'http://x', templateId: "it's", variables: [] });
    expect(quoted.curl).toContain(`"template_id": "it'\\''s"`);
  });
});
