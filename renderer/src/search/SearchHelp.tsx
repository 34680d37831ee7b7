import { useEffect, type RefObject } from 'react';
import { KEY_HELP, SYNTAX_HELP } from '../../../shared/query/help';
import { useOutsideClose } from '../common/use-outside-close';
import './search-help.css';

/**
 * The search box's help card: how the query language reads, then every key with an example (the engine's own list).
 * It closes on Escape and on a press outside `root` (the search box and its ? stay inside, so typing keeps it open).
 */
export function SearchHelp({ onClose, root }: { onClose: () => void; root: RefObject<HTMLElement | null> }) {
  const rows = [...SYNTAX_HELP, ...KEY_HELP.map((k) => ({ example: k.example, hint: k.hint }))];
  useOutsideClose(true, root, onClose);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The search box closes the card itself first (SearchBar), so one Escape never also clears the text.
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="search-help" role="dialog" aria-label="Search help">
      <header>
        <strong>Search</strong>
        <span className="muted small">Case and accents don’t matter: cervena finds červená.</span>
        <button type="button" className="icon" aria-label="Close search help" onClick={onClose}>
          ×
        </button>
      </header>
      <table>
        <tbody>
          {rows.map((row) => (
            <tr key={row.example}>
              <td>
                <code>{row.example}</code>
              </td>
              <td>{row.hint}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
