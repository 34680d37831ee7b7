import { useEffect } from 'react';
import { isTextField, keyToCommand } from '../common/keyboard';
import { THUMB_SIZES } from '../gallery/grid-layout';
import { useAppStore } from '../store/context';
import { CheatSheet, cheatSheetOpen, openCheatSheet } from './CheatSheet';
import { isPicture, panelKeyToCommand } from './panels';

/** Keys that work anywhere outside a text field: `/` to search, Ctrl/Cmd+Z to undo, Ctrl/Cmd+I to import, Q for the queue, Ctrl/Cmd +/− thumbnail size; C, B and Tab on a picture fold the panels (panels.ts). */
export function GlobalKeys() {
  const store = useAppStore();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const state = store.getState();
      if (state.viewerId !== null || state.panel !== 'none' || state.importDialog !== null || cheatSheetOpen()) return;
      const panelCommand = panelKeyToCommand({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        shiftKey: event.shiftKey,
        altKey: event.altKey,
        onPicture: isPicture(event.target),
        inTextField: isTextField(event.target),
      });
      if (panelCommand !== null) {
        event.preventDefault();
        if (panelCommand === 'togglePanels') state.toggleAllPanels();
        else state.togglePanel(panelCommand === 'toggleComposer' ? 'composer' : 'sidebar');
        return;
      }
      const command = keyToCommand(
        {
          key: event.key,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          shiftKey: event.shiftKey,
          altKey: event.altKey,
          inTextField: isTextField(event.target),
        },
        'other',
      );
      if (command === 'import') {
        event.preventDefault();
        state.openImportDialog();
      } else if (command === 'focusSearch') {
        event.preventDefault();
        document.getElementById('search')?.focus();
      } else if (command === 'compose') {
        event.preventDefault();
        const folded = !state.panels.composer;
        state.showPanel('composer');
        state.setComposerOpen(true);
        // Wide windows have no drawer: the prompt takes the keyboard at once, or once a folded composer is drawn again.
        const focusPrompt = () => document.querySelector<HTMLTextAreaElement>('textarea.prompt')?.focus();
        if (folded) requestAnimationFrame(focusPrompt);
        else focusPrompt();
      } else if (command === 'shortcuts') {
        event.preventDefault();
        openCheatSheet();
      } else if (command === 'queue') {
        event.preventDefault();
        state.setQueueOpen(!state.queueOpen);
      } else if (command === 'models') {
        event.preventDefault();
        if (state.modelsOpen) state.closeModels();
        else state.openModels();
      } else if (command === 'close' && state.modelsOpen) {
        event.preventDefault();
        state.closeModels();
      } else if (command === 'close' && state.composerOpen) {
        event.preventDefault();
        state.setComposerOpen(false);
      } else if (command === 'thumbsBigger' || command === 'thumbsSmaller') {
        event.preventDefault();
        state.setThumbSize(state.thumbSize + (command === 'thumbsBigger' ? 1 : -1) * THUMB_SIZES.step * 2);
      } else if (command === 'undo') {
        const undo = [...state.toasts].reverse().find((t) => t.action?.label === 'Undo');
        if (undo?.action !== undefined) {
          event.preventDefault();
          undo.action.run();
          state.dismissToast(undo.id);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
  return <CheatSheet />;
}
