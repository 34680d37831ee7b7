import { useApp } from '../store/context';
import { sidebarVisible } from '../store/ui-slice';
import type { PanelName } from './panels';

/** A panel drawn as a window with its column filled: left for the composer, a narrower one for the boards. */
function PanelIcon({ column }: { column: 'wide' | 'narrow' }) {
  return (
    <svg width="18" height="16" viewBox="0 0 18 16" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="16" height="14" rx="2" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <rect x="1" y="1" width={column === 'wide' ? 7 : 4.5} height="14" rx="2" fill="currentColor" opacity="0.55" />
    </svg>
  );
}

/** Named for what pressed means (so it reads "Show composer, pressed"); the tooltip says what a click does now. */
function PanelToggle({
  name,
  label,
  what,
  shortcut,
}: {
  name: PanelName;
  label: string;
  what: string;
  shortcut: string;
}) {
  const shown = useApp((s) => (name === 'composer' ? s.panels.composer : sidebarVisible(s)));
  const togglePanel = useApp((s) => s.togglePanel);
  return (
    <button
      type="button"
      className={`btn ghost panel-toggle panel-toggle-${name}`}
      aria-label={label}
      aria-pressed={shown}
      aria-keyshortcuts={shortcut}
      title={`${shown ? 'Hide' : 'Show'} the ${what} (${shortcut}; Tab on a picture: every panel)`}
      onClick={() => togglePanel(name)}
    >
      <PanelIcon column={name === 'composer' ? 'wide' : 'narrow'} />
    </button>
  );
}

/** The toolbar's panel switches: the composer (in a wide window; a narrow one has the Compose drawer) and the boards. */
export function PanelToggles() {
  return (
    <div className="panel-toggles" role="group" aria-label="Panels">
      <PanelToggle name="composer" label="Show composer" what="composer" shortcut="C" />
      <PanelToggle name="sidebar" label="Show boards and tags" what="boards and tags" shortcut="B" />
    </div>
  );
}
