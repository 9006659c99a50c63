/**
 * Text put in at the caret of the text being edited in the designer (a merge tag from the menu).
 * The caret ends after what was put in, the selection collapsed there, so the next keystroke goes on
 * after it rather than replacing it (as Mailchimp's merge tags do). GrapesJS's own `insertHTML` leaves
 * the inserted nodes selected.
 */
export function insertTextAtCaret(editable: HTMLElement, text: string): void {
  const doc = editable.ownerDocument;
  const selection = doc.getSelection();
  let range = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
  if (!range || !editable.contains(range.commonAncestorContainer)) {
    // No caret in this text (focus went elsewhere meanwhile): at its end.
    range = doc.createRange();
    range.selectNodeContents(editable);
    range.collapse(false);
  }
  range.deleteContents();
  const node = doc.createTextNode(text);
  range.insertNode(node);
  range.setStartAfter(node);
  range.collapse(true);
  editable.focus();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
