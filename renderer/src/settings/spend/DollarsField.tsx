import { useState } from 'react';
import { dollarsField, parseDollars } from './spend-view';

/**
 * One dollar amount, saved on Enter or Save: blank means none (no cap, the default price). What cannot be dollars is
 * said under the field and nothing is sent.
 */
export function DollarsField(props: {
  id: string;
  label: string;
  value: number | null;
  max: number;
  placeholder: string;
  onSave: (usd: number | null) => Promise<void>;
}) {
  const [text, setText] = useState(dollarsField(props.value));
  const [shown, setShown] = useState(props.value);
  const [problem, setProblem] = useState<string | null>(null);
  // The field follows the saved value when it changes elsewhere (adjusted while rendering, not in an effect).
  if (shown !== props.value) {
    setShown(props.value);
    setText(dollarsField(props.value));
  }
  const changed = text.trim() !== dollarsField(props.value);
  const errorId = `${props.id}-error`;
  return (
    <form
      className="spend-amount"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = parseDollars(text, props.max);
        if (!parsed.ok) {
          setProblem(parsed.message);
          return;
        }
        setProblem(null);
        void props.onSave(parsed.usd);
      }}
    >
      <span aria-hidden="true">$</span>
      <input
        id={props.id}
        aria-label={props.label}
        inputMode="decimal"
        autoComplete="off"
        value={text}
        placeholder={props.placeholder}
        aria-invalid={problem !== null}
        aria-describedby={problem === null ? undefined : errorId}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit" className="btn small" disabled={!changed}>
        Save
      </button>
      {problem === null ? null : (
        <span id={errorId} className="field-error" role="alert">
          {problem}
        </span>
      )}
    </form>
  );
}
