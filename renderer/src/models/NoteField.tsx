import { useEffect, useRef, useState } from 'react';
import { useApp } from '../store/context';

/** A model's free note, saved when the field is left (Escape puts the saved note back). */
export function NoteField({ modelKey, note, name }: { modelKey: string; note: string | undefined; name: string }) {
  const save = useApp((s) => s.saveModelNote);
  const [text, setText] = useState(note ?? '');
  const editing = useRef(false);
  const cancelled = useRef(false);
  // A note saved elsewhere (or put back after a refusal) shows unless the person is typing in this one.
  useEffect(() => {
    if (!editing.current) setText(note ?? '');
  }, [note]);
  return (
    <textarea
      className="model-note"
      rows={2}
      maxLength={2_000}
      aria-label={`Note on ${name}`}
      placeholder="Add a note…"
      value={text}
      onFocus={() => (editing.current = true)}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          cancelled.current = true;
          e.currentTarget.blur();
        }
      }}
      onBlur={() => {
        editing.current = false;
        if (cancelled.current) {
          cancelled.current = false;
          setText(note ?? '');
        } else void save(modelKey, text);
      }}
    />
  );
}
