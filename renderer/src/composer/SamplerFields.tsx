import type { ProviderKind } from '../../../shared/contract';
import { A1111_SCHEDULE_TYPES, COMFY_SCHEDULERS } from '../../../shared/mapping/samplers';
import { useApp } from '../store/context';
import { Field } from '../common/Field';

/** The list, plus a reused or mapped name it does not hold: shown as it is, never silently replaced. */
function withCurrent(names: readonly string[], current: string): string[] {
  return current !== '' && !names.includes(current) ? [...names, current] : [...names];
}

/** Sampler and schedule, for providers that have a choice (A1111's "Schedule type", ComfyUI's scheduler). */
export function SamplerFields({ samplers, kind }: { samplers: readonly string[]; kind: ProviderKind | undefined }) {
  const sampler = useApp((s) => s.draft.sampler);
  const scheduler = useApp((s) => s.draft.scheduler);
  const errors = useApp((s) => s.fieldErrors);
  const update = useApp((s) => s.updateDraft);
  const schedules = kind === 'a1111' ? A1111_SCHEDULE_TYPES : kind === 'comfyui' ? COMFY_SCHEDULERS : null;
  return (
    <div className="row">
      <Field label="Sampler" error={errors.sampler}>
        {(props) => (
          <select {...props} value={sampler} onChange={(e) => update({ sampler: e.target.value })}>
            <option value="">Default</option>
            {withCurrent(samplers, sampler).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {schedules !== null ? (
        <Field label="Schedule" error={errors.scheduler}>
          {(props) => (
            <select {...props} value={scheduler} onChange={(e) => update({ scheduler: e.target.value })}>
              <option value="">Default</option>
              {withCurrent(schedules, scheduler).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
    </div>
  );
}
