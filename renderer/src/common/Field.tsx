import { useId, type ReactNode } from 'react';

/** A labelled control with its validation message beside it, announced to screen readers. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={error === undefined ? 'field' : 'field invalid'}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': error !== undefined,
        ...(error === undefined ? {} : { 'aria-describedby': errorId }),
      })}
      {error === undefined ? (
        hint === undefined ? null : (
          <p className="hint">{hint}</p>
        )
      ) : (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
