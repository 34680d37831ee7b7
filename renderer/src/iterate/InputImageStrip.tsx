import { useId } from 'react';
import { actionSupport, providerFor } from './iterate';
import { useApi, useApp } from '../store/context';
import './iterate.css';

/** The composer's "working from" strip: the source image, how far the result may move from it, and a way out. */
export function InputImageStrip() {
  const api = useApi();
  const from = useApp((s) => s.workingFrom);
  const setStrength = useApp((s) => s.setInputStrength);
  const clear = useApp((s) => s.clearInput);
  const reason = useApp((s) => {
    if (s.workingFrom === null) return undefined;
    const support = actionSupport('useAsInput', providerFor(s.providers, s.draft.provider), {}, s.draft.model);
    return support.enabled ? undefined : support.reason;
  });
  // The engine's refusal of the input (gone from the library, a provider that cannot use it) lands here.
  const refused = useApp((s) => s.fieldErrors.inputImage ?? s.fieldErrors.mask);
  const sliderId = useId();
  if (from === null) return null;
  return (
    <div
      className={reason === undefined ? 'input-strip' : 'input-strip blocked'}
      role="group"
      aria-label="Working from an image"
    >
      <img
        className="input-strip-thumb"
        src={api.mediaUrl('thumb', from.imageId)}
        alt="The input image"
        width={56}
        height={56}
      />
      <div className="input-strip-body">
        <span className="input-strip-title">
          Working from this image{' '}
          <span className="muted">
            ({from.width} × {from.height})
          </span>
        </span>
        <label className="input-strip-strength" htmlFor={sliderId}>
          <span>Strength {from.strength.toFixed(2)}</span>
          <input
            id={sliderId}
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={from.strength}
            aria-valuetext={`${from.strength.toFixed(2)}: ${from.strength < 0.35 ? 'close to the input' : from.strength > 0.8 ? 'free of the input' : 'between'}`}
            onChange={(e) => setStrength(Number(e.target.value))}
          />
        </label>
        <span className="muted small">0 keeps the input, 1 ignores it.</span>
        {reason === undefined ? null : (
          <span className="input-strip-reason small" role="note">
            {reason} Choose another provider, or remove the input.
          </span>
        )}
        {refused === undefined || refused === reason ? null : (
          <span className="input-strip-reason small" role="alert">
            {refused}
          </span>
        )}
      </div>
      <button
        type="button"
        className="icon"
        aria-label="Remove the input image"
        title="Back to text only"
        onClick={clear}
      >
        ×
      </button>
    </div>
  );
}
