import type { SweepField } from '../../../shared/contract';
import { useApp } from '../store/context';
import { AXIS_NAMES, FIELD_EXAMPLES, FIELD_LABELS, FIELD_ORDER, NEW_AXIS, type SweepAxisDraft } from './sweep-axes';
import { sweepTally, type SweepView } from './sweep-plan';
import './sweeps.css';

/** The most chips under an axis; the rest are counted ("+ 12 more"). */
const CHIPS_SHOWN = 16;

/** The composer's Sweep: up to three axes, each a field and its values, read into chips with the cell count. */
export function SweepSection({ view, loras }: { view: SweepView; loras: readonly string[] }) {
  const open = useApp((s) => s.sweepSectionOpen);
  const setOpen = useApp((s) => s.setSweepSectionOpen);
  const axes = useApp((s) => s.sweepAxes);
  const setAxes = useApp((s) => s.setSweepAxes);
  const engineErrors = useApp((s) => s.sweepErrors);
  const change = (index: number, patch: Partial<SweepAxisDraft>) =>
    setAxes(axes.map((axis, i) => (i === index ? { ...axis, ...patch } : axis)));

  return (
    <details className="sweep-section" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Sweep
        {/* Folded, the axes wait (Generate is plain): the note says they are kept, the open section counts them. */}
        {view.active && !open ? <span className="sweep-note">{sweepTally(view, axes)}, kept for later</span> : null}
      </summary>
      <div className="sweep-axes">
        <p className="muted sweep-intro">
          Vary up to three settings; each combination is a job, read as one labelled grid.
        </p>
        {axes.map((axis, index) => {
          const reading = view.axes[index];
          const message = engineErrors[index] ?? reading?.message ?? null;
          const name = AXIS_NAMES[index]!;
          const id = `sweep-axis-${index}`;
          return (
            <fieldset key={index} className="sweep-axis" aria-label={`${name} axis`}>
              <div className="sweep-axis-row">
                <span className="sweep-axis-name" aria-hidden="true">
                  {name}
                </span>
                <select
                  aria-label={`${name} axis setting`}
                  value={axis.field}
                  onChange={(e) => change(index, { field: e.target.value as SweepField })}
                >
                  {FIELD_ORDER.map((field) => (
                    <option key={field} value={field}>
                      {FIELD_LABELS[field]}
                    </option>
                  ))}
                </select>
                {axis.field === 'loraWeight' ? (
                  <input
                    aria-label={`${name} axis LoRA`}
                    className="sweep-axis-lora"
                    list={`${id}-loras`}
                    placeholder="Which LoRA"
                    value={axis.lora}
                    onChange={(e) => change(index, { lora: e.target.value })}
                  />
                ) : null}
                {axis.field === 'loraWeight' ? (
                  <datalist id={`${id}-loras`}>
                    {loras.map((lora) => (
                      <option key={lora} value={lora} />
                    ))}
                  </datalist>
                ) : null}
                {axes.length > 1 ? (
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Remove the ${name} axis`}
                    onClick={() => setAxes(axes.filter((_, i) => i !== index))}
                  >
                    ×
                  </button>
                ) : null}
              </div>
              <input
                id={id}
                className="sweep-values"
                aria-label={`${name} axis values`}
                aria-invalid={message !== null}
                aria-describedby={message !== null ? `${id}-error` : undefined}
                autoComplete="off"
                spellCheck={false}
                placeholder={`e.g. ${FIELD_EXAMPLES[axis.field]}`}
                value={axis.values}
                onChange={(e) => change(index, { values: e.target.value })}
              />
              {reading !== undefined && reading.labels.length > 0 ? (
                <ul className="sweep-chips" aria-label={`${name} values`}>
                  {reading.labels.slice(0, CHIPS_SHOWN).map((label, i) => (
                    <li key={i} className="chip">
                      {label}
                    </li>
                  ))}
                  {reading.labels.length > CHIPS_SHOWN ? (
                    <li className="chip muted">+ {reading.labels.length - CHIPS_SHOWN} more</li>
                  ) : null}
                </ul>
              ) : null}
              {message !== null ? (
                <p id={`${id}-error`} className="field-error" role="alert">
                  {message}
                </p>
              ) : null}
            </fieldset>
          );
        })}
        {axes.length < AXIS_NAMES.length ? (
          <button
            type="button"
            className="btn small"
            onClick={() => setAxes([...axes, { ...NEW_AXIS, field: axes.length === 1 ? 'steps' : 'seed' }])}
          >
            + {AXIS_NAMES[axes.length]} axis
          </button>
        ) : null}
        {view.active ? (
          <p className={view.ok ? 'muted sweep-tally' : 'field-error sweep-tally'} role="status">
            {view.ok ? sweepTally(view, axes) : view.reason}
          </p>
        ) : null}
      </div>
    </details>
  );
}
