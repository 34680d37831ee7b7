import type { ReactNode } from 'react';
import type { ProviderCapabilities } from '../../../shared/contract';
import { Field } from '../common/Field';
import { ASPECT_RATIOS, fixedSizeLabel, litRatio, sizeForRatio } from './size-ratios';
import './composer-size.css';

interface Props {
  width: number;
  height: number;
  caps: ProviderCapabilities | undefined;
  errors: { width?: string | undefined; height?: string | undefined };
  onChange: (size: { width: number; height: number }) => void;
  /** Shown after width and height on their row (the count). */
  children?: ReactNode;
}

/**
 * The composer's one way to set a size: ratio chips (lit by size-ratios.ts) over the width and height fields; a model
 * that takes only listed sizes shows one chip per size instead.
 */
export function SizeField({ width, height, caps, errors, onChange, children }: Props) {
  const fixed = caps?.sizes.fixed !== undefined && caps.sizes.fixed.length > 0 ? caps.sizes.fixed : null;
  const step = caps?.sizes.multipleOf ?? 1;
  const lit = fixed === null ? litRatio(width, height, step) : null;
  const error = errors.width ?? errors.height;
  return (
    <div className="size-field">
      <span className="label" id="composer-size-label">
        Size
      </span>
      <div
        className={fixed === null ? 'chips ratio-chips' : 'chips'}
        role="group"
        aria-labelledby="composer-size-label"
      >
        {fixed !== null
          ? fixed.map(([w, h]) => {
              const active = w === width && h === height;
              return (
                <button
                  key={`${w}x${h}`}
                  type="button"
                  className={active ? 'chip active' : 'chip'}
                  aria-pressed={active}
                  onClick={() => onChange({ width: w, height: h })}
                >
                  {fixedSizeLabel(w, h)}
                </button>
              );
            })
          : ASPECT_RATIOS.map((ratio) => {
              const next = caps === undefined ? null : sizeForRatio(ratio, width, height, caps.sizes);
              const active = lit === ratio;
              return (
                <button
                  key={ratio.label}
                  type="button"
                  className={active ? 'chip active' : 'chip'}
                  aria-pressed={active}
                  disabled={next === null}
                  title={next === null ? undefined : `${next[0]} × ${next[1]}`}
                  onClick={() => {
                    if (next !== null) onChange({ width: next[0], height: next[1] });
                  }}
                >
                  {ratio.label}
                </button>
              );
            })}
      </div>
      {fixed !== null && error !== undefined ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="row size-inputs">
        {fixed === null ? (
          <>
            <SideInput
              label="Width"
              value={width}
              caps={caps}
              error={errors.width}
              onValue={(w) => onChange({ width: w, height })}
            />
            <span className="size-times" aria-hidden="true">
              ×
            </span>
            <SideInput
              label="Height"
              value={height}
              caps={caps}
              error={errors.height}
              onValue={(h) => onChange({ width, height: h })}
            />
          </>
        ) : null}
        {children}
      </div>
    </div>
  );
}

/** One side of the size, bounded and stepped as the provider takes it. */
function SideInput({
  label,
  value,
  caps,
  error,
  onValue,
}: {
  label: string;
  value: number;
  caps: ProviderCapabilities | undefined;
  error: string | undefined;
  onValue: (value: number) => void;
}) {
  return (
    <Field label={label} error={error}>
      {(props) => (
        <input
          {...props}
          type="number"
          min={caps?.sizes.min}
          max={caps?.sizes.max}
          step={caps?.sizes.multipleOf}
          value={value}
          onChange={(e) => onValue(Number(e.target.value))}
        />
      )}
    </Field>
  );
}
