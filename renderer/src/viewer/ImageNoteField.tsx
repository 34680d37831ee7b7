import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useAppShallow } from '../store/context';

/**
 * The person's note on the image on screen: free text, any length of lines, saved when the field is left or on
 * Ctrl+Enter. While it has focus, a note arriving from elsewhere never overwrites what is being typed. Details keys it
 * by the image, so another image gets a field of its own.
 */
export function ImageNoteField({ imageId, saved }: { imageId: string; saved: string }) {
  const save = useAppShallow((s) => s.saveNote);
  const [text, setText] = useState(saved);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle');
  const focused = useRef(false);
  const id = useId();

  useEffect(() => {
    if (!focused.current) setText(saved);
  }, [saved]);

  const commit = async () => {
    if (text.trim() === saved.trim()) return;
    setStatus('saving');
    setStatus((await save(imageId, text)) ? 'saved' : 'idle');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void commit();
    } else if (event.key === 'Escape') {
      // Leaves the note (and saves it) before the viewer closes on the next Escape.
      event.stopPropagation();
      event.currentTarget.blur();
    }
  };

  return (
    <section className="image-note field">
      <label htmlFor={id}>Note</label>
      <textarea
        id={id}
        rows={2}
        placeholder="Add a note…"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setStatus('idle');
        }}
        onFocus={() => {
          focused.current = true;
        }}
        onBlur={() => {
          focused.current = false;
          void commit();
        }}
        onKeyDown={onKeyDown}
      />
      <p className="hint" aria-live="polite">
        {status === 'saving'
          ? 'Saving…'
          : status === 'saved'
            ? 'Saved.'
            : 'Saved when you leave the field (Ctrl+Enter).'}
      </p>
    </section>
  );
}
