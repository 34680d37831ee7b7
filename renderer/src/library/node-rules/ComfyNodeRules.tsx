import { useState } from 'react';
import type { ComfyNodeRule } from '../../../../shared/contract';
import { useApp } from '../../store/context';
import './node-rules.css';

/** The settings a rule can name, as a person reads them (shared/contract/settings.ts COMFY_RULE_FIELDS). */
export const RULE_FIELD_LABELS: Record<ComfyNodeRule['field'], string> = {
  prompt: 'Prompt',
  negativePrompt: 'Negative prompt',
  seed: 'Seed',
  model: 'Model',
  steps: 'Steps',
  guidance: 'CFG',
  sampler: 'Sampler',
  width: 'Width',
  height: 'Height',
};
const FIELDS = Object.keys(RULE_FIELD_LABELS) as Array<ComfyNodeRule['field']>;

/**
 * Settings → Library → Your ComfyUI nodes: which node class and input of a person's own workflows holds the prompt,
 * seed, model…; saving re-reads the ComfyUI files in the background with the rules.
 */
export function ComfyNodeRules() {
  const rules = useApp((s) => s.settings?.library.comfyNodeRules ?? []);
  const update = useApp((s) => s.updateSettings);
  const toast = useApp((s) => s.toast);
  const [classType, setClassType] = useState('');
  const [input, setInput] = useState('');
  const [field, setField] = useState<ComfyNodeRule['field']>('prompt');

  const save = async (next: ComfyNodeRule[], message: string): Promise<boolean> => {
    const ok = await update({ library: { comfyNodeRules: next } });
    if (ok) toast({ kind: 'info', message });
    return ok;
  };

  return (
    <section aria-labelledby="node-rules-title">
      <h3 id="node-rules-title">Your ComfyUI nodes</h3>
      <p className="muted small">
        Where your own nodes keep a setting: Atelier reads it wherever a graph passes through such a node. Saving
        re-reads your ComfyUI images in the background.
      </p>
      {rules.length === 0 ? null : (
        <ul className="node-rules" aria-label="Node rules">
          {rules.map((rule, i) => (
            <li key={`${rule.classType}.${rule.input}.${rule.field}`} className="node-rule">
              <span className="mono">{rule.classType}</span>
              <span className="muted">·</span>
              <span className="mono">{rule.input}</span>
              <span className="muted">→</span>
              <span>{RULE_FIELD_LABELS[rule.field]}</span>
              <button
                type="button"
                className="link small"
                aria-label={`Remove the rule for ${rule.classType} ${rule.input}`}
                onClick={() =>
                  void save(
                    rules.filter((_, at) => at !== i),
                    'Rule removed; re-reading your ComfyUI images.',
                  )
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="node-rule-form"
        onSubmit={(e) => {
          e.preventDefault();
          const rule = { classType: classType.trim(), input: input.trim(), field };
          if (rule.classType === '' || rule.input === '') return;
          const others = rules.filter((r) => !(r.classType === rule.classType && r.input === rule.input));
          void save([...others, rule], 'Rule saved; re-reading your ComfyUI images.').then((ok) => {
            if (!ok) return;
            setClassType('');
            setInput('');
          });
        }}
      >
        <input
          type="text"
          aria-label="Node class"
          placeholder="Node class, e.g. MyPromptNode"
          value={classType}
          maxLength={200}
          onChange={(e) => setClassType(e.target.value)}
        />
        <input
          type="text"
          aria-label="Input name"
          placeholder="Input, e.g. text"
          value={input}
          maxLength={200}
          onChange={(e) => setInput(e.target.value)}
        />
        <select
          aria-label="Setting it holds"
          value={field}
          onChange={(e) => setField(e.target.value as ComfyNodeRule['field'])}
        >
          {FIELDS.map((f) => (
            <option key={f} value={f}>
              {RULE_FIELD_LABELS[f]}
            </option>
          ))}
        </select>
        <button type="submit" className="btn small" disabled={classType.trim() === '' || input.trim() === ''}>
          Add rule
        </button>
      </form>
    </section>
  );
}
