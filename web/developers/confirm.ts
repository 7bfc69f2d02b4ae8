import { byId } from './dom.js';

/**
 * Asks before something that cannot be undone, in a modal dialog (focus
 * stays inside it, Escape cancels, focus returns to the button that opened
 * it). Resolves true only when the action button was chosen.
 */
export function confirmAction(question: { title: string; text: string; action: string }): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('confirm');
  byId('confirm-title').textContent = question.title;
  byId('confirm-text').textContent = question.text;
  byId('confirm-action').textContent = question.action;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.showModal();
  });
}
