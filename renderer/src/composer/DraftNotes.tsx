import { useApp } from '../store/context';

/** What did not carry over when settings moved to another kind of provider: named, never silently dropped. */
export function DraftNotes() {
  const notes = useApp((s) => s.draftNotes);
  const dismiss = useApp((s) => s.dismissNotes);
  if (notes === null) return null;
  return (
    <div className="draft-notes" role="status" aria-label="What did not carry over">
      <div className="draft-notes-head">
        <strong>{notes.title}</strong>
        <button type="button" className="icon-btn" aria-label="Dismiss these notes" onClick={dismiss}>
          ×
        </button>
      </div>
      <ul>
        {notes.warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </div>
  );
}
