import { attributeKeyFromName, attributeKeyProblem } from './attribute-key';

describe('attributeKeyFromName', () => {
  it.each([
    ['Discord Handle', 'discord_handle'],
    ['  Token   balance ', 'token_balance'],
    ['Größe (cm)', 'grosse_cm'],
    ['Café crème', 'cafe_creme'],
    ['2024 NFT holder', 'attr_2024_nft_holder'],
    ['E-mail opt-in?', 'e_mail_opt_in'],
    ['___', ''],
    ['', ''],
    ['🎉 Party', 'party'],
    ['a'.repeat(50), 'a'.repeat(40)],
    [`${'b'.repeat(39)} c`, 'b'.repeat(39)],
  ])('%p -> %p', (name, key) => {
    expect(attributeKeyFromName(name)).toBe(key);
  });
});

describe('attributeKeyProblem', () => {
  it.each([
    ['discord_handle', null],
    ['', 'Enter a key.'],
    ['Discord', 'Use lower-case letters, digits and underscores, starting with a letter (at most 40).'],
    ['1abc', 'Use lower-case letters, digits and underscores, starting with a letter (at most 40).'],
    ['email', 'This key belongs to a contact field.'],
    ['first_name', 'This key belongs to a contact field.'],
  ])('%p -> %p', (key, problem) => {
    expect(attributeKeyProblem(key)).toBe(problem);
  });
});
