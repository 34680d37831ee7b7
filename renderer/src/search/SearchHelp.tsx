import { KEY_HELP, SYNTAX_HELP } from '../../../shared/query/help';

/** The search box's help card: how the query language reads, then every key with an example (the engine's own list). */
export function SearchHelp({ onClose }: { onClose: () => void }) {
  const rows = [...SYNTAX_HELP, ...KEY_HELP.map((k) => ({ example: k.example, hint: k.hint }))];
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
