/**
 * Copies a read-only field's text: the Clipboard API where the browser
 * offers it, else the older copy command on the selected text. Answers
 * whether the text reached the clipboard; either way the text is left
 * selected, so it can be copied by hand.
 */
export async function copyField(field: HTMLInputElement): Promise<boolean> {
  field.focus();
  field.select();
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(field.value);
      return true;
    } catch {
      // Permission refused or no focus: fall back to the copy command.
    }
  }
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}
