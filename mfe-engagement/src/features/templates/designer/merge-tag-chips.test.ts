import { insertTextAtCaret } from './caret-insert';
import {
  CHIP_ATTRIBUTE,
  decorateMergeTags,
  mergeTagPath,
  undecorateMergeTags,
  type MergeTagInfo,
} from './merge-tag-chips';

const CATALOGUE: Record<string, MergeTagInfo> = {
  'contact.first_name': { label: 'First name', example: 'Ada' },
  'community.name': { label: 'Community name', example: 'Acme DAO' },
  'community.postal_address': { label: 'Postal address', example: '' },
};
const describe = (path: string) => CATALOGUE[path] ?? null;

function textOf(html: string): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = html;
  document.body.replaceChildren(el);
  return el;
}

test('reads the variable of an output, filters and spaces as written', () => {
  expect(mergeTagPath('{{ contact.first_name | default: "" }}')).toBe('contact.first_name');
  expect(mergeTagPath('{{community.name}}')).toBe('community.name');
  expect(mergeTagPath('{{- unsubscribe_url -}}')).toBe('unsubscribe_url');
  expect(mergeTagPath('{{ "x" }}')).toBeNull();
});

test('shows each merge tag as a chip with its sample value, the tag in its title', () => {
  const el = textOf('<p>Hello {{ contact.first_name | default: "" }}, welcome to {{community.name}}!</p>');
  decorateMergeTags(el, describe);
  const chips = Array.from(el.querySelectorAll(`[${CHIP_ATTRIBUTE}]`));
  expect(chips.map((c) => c.textContent)).toEqual(['Ada', 'Acme DAO']);
  expect(el.textContent).toBe('Hello Ada, welcome to Acme DAO!');
  expect(chips[0]?.getAttribute('title')).toBe('First name: {{ contact.first_name | default: "" }}');
  expect(chips[0]?.getAttribute('contenteditable')).toBe('false');
});

test('an empty sample shows the label; an unknown tag shows as written, marked', () => {
  const el = textOf('<p>{{ community.postal_address }} {{ contact.frist_name }}</p>');
  decorateMergeTags(el, describe);
  const chips = Array.from(el.querySelectorAll(`[${CHIP_ATTRIBUTE}]`));
  expect(chips.map((c) => c.textContent)).toEqual(['Postal address', '{{ contact.frist_name }}']);
  expect(chips[1]?.hasAttribute('data-unknown')).toBe(true);
});

test('undecorating gives back exactly the markup it started from, in the same text nodes', () => {
  const html =
    '<p>Hi {{ contact.first_name | default: "" }}{{community.name}} and <b>{{ community.name }}</b> ok</p><p>{{ x }}</p>';
  const el = textOf(html);
  const first = el.querySelector('p')!.firstChild;
  decorateMergeTags(el, describe);
  expect(el.innerHTML).not.toBe(html);
  decorateMergeTags(el, describe); // Twice is once: chips are not decorated again.
  expect(el.querySelectorAll(`[${CHIP_ATTRIBUTE}]`)).toHaveLength(4);
  undecorateMergeTags(el);
  expect(el.innerHTML).toBe(html);
  expect(el.querySelector('p')!.firstChild).toBe(first);
  expect(el.querySelector('p')!.childNodes).toHaveLength(3);
});

test('a text being edited is left plain, and typing after an inserted tag goes on after it', () => {
  const el = textOf('<p contenteditable="true">Hello {{ community.name }}</p><p>{{ community.name }}</p>');
  decorateMergeTags(el, describe);
  const [editing, other] = Array.from(el.querySelectorAll('p'));
  expect(editing?.querySelector(`[${CHIP_ATTRIBUTE}]`)).toBeNull();
  expect(other?.querySelector(`[${CHIP_ATTRIBUTE}]`)).not.toBeNull();

  // Item: insert a tag at the caret, type on; the text stays plain while edited and is decorated after.
  const range = document.createRange();
  range.selectNodeContents(editing!);
  range.collapse(false);
  document.getSelection()?.removeAllRanges();
  document.getSelection()?.addRange(range);
  insertTextAtCaret(editing!, '{{ contact.first_name | default: "" }}');
  insertTextAtCaret(editing!, ', version 3');
  decorateMergeTags(el, describe);
  expect(editing?.textContent).toBe('Hello {{ community.name }}{{ contact.first_name | default: "" }}, version 3');
  editing?.removeAttribute('contenteditable');
  decorateMergeTags(el, describe);
  expect(editing?.textContent).toBe('Hello Acme DAOAda, version 3');
});
