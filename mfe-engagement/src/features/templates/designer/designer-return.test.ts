import { designerHref, designerReturn } from './designer-return';

describe('the designer back link', () => {
  it('returns to the compose screen it was opened from', () => {
    const href = designerHref('t1', '/engagement/emails/compose/c-42');
    expect(href).toBe('/engagement/templates/t1?from=%2Fengagement%2Femails%2Fcompose%2Fc-42');
    expect(designerReturn(href.slice(href.indexOf('?')))).toEqual({
      to: '/engagement/emails/compose/c-42',
      label: 'E-mail',
    });
  });

  it('otherwise, and for any other address, returns to the templates', () => {
    expect(designerHref('t1')).toBe('/engagement/templates/t1');
    for (const search of [
      '',
      '?from=https://evil.example/',
      '?from=//evil.example',
      '?from=/account/users',
      '?from=/engagement/emails/compose/x/../../y',
    ]) {
      expect(designerReturn(search)).toEqual({ to: '/engagement/templates', label: 'Templates' });
    }
    expect(designerHref('t1', 'https://evil.example')).toBe('/engagement/templates/t1');
  });
});
