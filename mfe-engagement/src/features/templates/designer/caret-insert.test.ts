import { insertTextAtCaret } from './caret-insert';

const TAG = '{{ contact.first_name | default: "" }}';

/** What a browser does with a keystroke in a contenteditable: the selection is replaced by the key's text. */
function type(doc: Document, text: string) {
  const range = doc.getSelection()!.getRangeAt(0);
  range.deleteContents();
  const node = doc.createTextNode(text);
  range.insertNode(node);
  range.setStartAfter(node);
  range.collapse(true);
}

function editableWith(html: string): HTMLElement {
  const el = document.createElement('div');
  el.contentEditable = 'true';
  el.innerHTML = html;
  document.body.replaceChildren(el);
  return el;
}

function caretAtEndOf(el: HTMLElement) {
  const range = document.createRange();
  range.selectNodeContents(el);
  range.collapse(false);
  document.getSelection()!.removeAllRanges();
  document.getSelection()!.addRange(range);
}

test('the caret sits after the inserted tag: typing on keeps the tag', () => {
  const el = editableWith('Hello ');
  caretAtEndOf(el);
  insertTextAtCaret(el, TAG);
  const selection = document.getSelection()!;
  expect(selection.isCollapsed).toBe(true);
  type(document, ', version 3');
  expect(el.textContent).toBe(`Hello ${TAG}, version 3`);
});

test('a selected word is replaced by the tag, and typing goes on after it', () => {
  const el = editableWith('Hello <b>reader</b>!');
  const word = el.querySelector('b')!.firstChild!;
  const range = document.createRange();
  range.selectNodeContents(word);
  document.getSelection()!.removeAllRanges();
  document.getSelection()!.addRange(range);
  insertTextAtCaret(el, TAG);
  type(document, ' and friends');
  expect(el.textContent).toBe(`Hello ${TAG} and friends!`);
});

test('inserted as text, never as markup', () => {
  const el = editableWith('Hi ');
  caretAtEndOf(el);
  insertTextAtCaret(el, '<img src=x onerror=alert(1)>');
  expect(el.querySelector('img')).toBeNull();
  expect(el.textContent).toBe('Hi <img src=x onerror=alert(1)>');
});

test('without a caret in the text, the tag goes at its end', () => {
  const el = editableWith('Hello ');
  document.getSelection()!.removeAllRanges();
  insertTextAtCaret(el, TAG);
  type(document, '!');
  expect(el.textContent).toBe(`Hello ${TAG}!`);
});
