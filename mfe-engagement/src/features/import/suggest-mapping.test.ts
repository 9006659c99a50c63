import type { ImportTarget } from '@console/shared/contracts';
import { assignTarget, compactHeader, mapsIdentity, suggestMapping } from './suggest-mapping';

const attributes = [
  { key: 'discord_handle', name: 'Discord handle' },
  { key: 'token_balance', name: 'Token balance' },
  { key: 'tier', name: 'Membership tier' },
];
const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('suggestMapping', () => {
  it.each<[string, string[], string[][], ImportTarget[]]>([
    ['e-mail spellings', ['E-mail'], [], ['email']],
    ['email address', ['Email Address'], [], ['email']],
    ['mail', ['mail'], [], ['email']],
    ['wallet spellings', ['Wallet Address', 'First Name', 'Surname'], [], ['wallet', 'first_name', 'last_name']],
    ['address means wallet', ['address'], [], ['wallet']],
    ['eth address', ['ETH address'], [], ['wallet']],
    ['first name spellings', ['firstname', 'lastname'], [], ['first_name', 'last_name']],
    ['given and family name', ['Given name', 'Family name'], [], ['first_name', 'last_name']],
    ['status and subscription', ['Subscription'], [], ['status']],
    ['status', ['STATUS'], [], ['status']],
    ['attribute by key', ['discord_handle'], [], ['attr:discord_handle']],
    ['attribute by name', ['Token Balance'], [], ['attr:token_balance']],
    ['attribute by slug of name', ['membership-tier'], [], ['attr:tier']],
    ['attribute by key, spaced', ['Discord Handle'], [], ['attr:discord_handle']],
    ['unknown header', ['Favourite colour'], [], [null]],
    ['empty header', [''], [], [null]],
    ['never the same target twice', ['Email', 'E-mail', 'mail'], [], ['email', null, null]],
    ['leftmost wallet wins', ['wallet', 'address'], [], ['wallet', null]],
    [
      '0x values make a wallet column',
      ['Column 1', 'Column 2'],
      [
        [WALLET, 'x'],
        ['', 'y'],
        [WALLET.toLowerCase(), 'z'],
      ],
      ['wallet', null],
    ],
    ['mixed values are not a wallet', ['col'], [[WALLET], ['not a wallet']], [null]],
    ['e-mail values make an e-mail column', ['who'], [['a@b.example'], ['c@d.example']], ['email']],
    ['header beats values', ['wallet', 'other'], [['x', WALLET]], ['wallet', null]],
    ['headers beat attributes', ['Token balance', 'email'], [], ['attr:token_balance', 'email']],
    ['an empty column is not sniffed', ['a'], [[''], ['']], [null]],
  ])('%s', (_name, headers, rows, expected) => {
    expect(suggestMapping(headers, attributes, rows)).toEqual(expected);
  });
});

describe('compactHeader', () => {
  it.each([
    ['E-Mail Address ', 'emailaddress'],
    ['Prénom', 'prenom'],
    ['first_name', 'firstname'],
  ])('%p -> %p', (text, compact) => expect(compactHeader(text)).toBe(compact));
});

describe('assignTarget', () => {
  it.each<[ImportTarget[], number, ImportTarget, ImportTarget[]]>([
    [['email', null], 1, 'wallet', ['email', 'wallet']],
    [['email', null], 1, 'email', [null, 'email']],
    [['email', 'wallet'], 0, null, [null, 'wallet']],
    [[null, null], 0, 'attr:tier', ['attr:tier', null]],
  ])('%p: column %p -> %p', (mapping, index, target, expected) => {
    expect(assignTarget(mapping, index, target)).toEqual(expected);
  });
});

describe('mapsIdentity', () => {
  it.each<[ImportTarget[], boolean]>([
    [['email'], true],
    [[null, 'wallet'], true],
    [['first_name', 'attr:tier'], false],
    [[], false],
  ])('%p -> %p', (mapping, expected) => expect(mapsIdentity(mapping)).toBe(expected));
});
