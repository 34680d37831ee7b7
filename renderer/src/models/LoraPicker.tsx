import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LibraryModel, ProviderInfo } from '../../../shared/contract';
import { MAX_LORAS } from '../common/contract-constants';
import { useOutsideClose } from '../common/use-outside-close';
import { useApi, useApp, useAppStore } from '../store/context';
import { addLora, loraChoices, removeLora, setLoraWeight, SLIDER, WEIGHT, withTriggerWords } from './lora-picker';
import './lora-picker.css';

/** Choices drawn at once: a search narrows the rest. */
const SHOWN_CHOICES = 60;

/** The composer's LoRAs: Add LoRA opens the library's LoRAs (the chosen server's first); each picked one with its weight. */
export function LoraPicker({
  servers,
  takesLoras,
  problems,
}: {
  /** The servers the composer's target sends to. */
  servers: readonly ProviderInfo[];
  takesLoras: boolean;
  /** The LoRAs the chosen servers lack, in words (lora-picker.ts missingOnServers). */
  problems: readonly string[];
}) {
  const store = useAppStore();
  const loras = useApp((s) => s.draft.loras);
  const update = useApp((s) => s.updateDraft);
  const library = useApp((s) => s.modelLibrary);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useOutsideClose(open, root, close);
  const ensure = useApp((s) => s.ensureModels);
  const picking = takesLoras && loras.length > 0;
  // LoRAs already in the draft (a reload, Reuse settings) are checked against the library's servers.
  useEffect(() => {
    if (picking) void ensure();
  }, [picking, ensure]);
  const byName = useMemo(() => {
    const map = new Map<string, LibraryModel>();
    for (const m of library?.items ?? []) {
      if (m.kind !== 'lora') continue;
      for (const s of m.servers) map.set(s.name, m);
      if (!map.has(m.name)) map.set(m.name, m);
    }
    return map;
  }, [library]);

  if (!takesLoras) {
    const name = servers[0]?.name ?? 'This provider';
    return (
      <p className="lora-hint hint">
        {loras.length === 0
          ? `LoRAs: ${name} takes none (A1111, Forge and ComfyUI servers do).`
          : `${name} takes no LoRAs: the ${loras.length === 1 ? 'LoRA chosen is' : `${loras.length} LoRAs chosen are`} not sent.`}
      </p>
    );
  }

  return (
    <div className="lora-picker" ref={root}>
      <div className="lora-head">
        <span className="lora-title">LoRAs</span>
        <button
          type="button"
          className="btn small"
          aria-expanded={open}
          aria-haspopup="dialog"
          disabled={loras.length >= MAX_LORAS}
          title={
            loras.length >= MAX_LORAS ? `At most ${MAX_LORAS} LoRAs on one request` : 'Pick a LoRA from your library'
          }
          onClick={() => setOpen(!open)}
        >
          Add LoRA
        </button>
      </div>
      {open ? (
        <LoraMenu
          servers={servers}
          onPick={(name) => {
            update({ loras: addLora(loras, name) });
            setOpen(false);
          }}
          onClose={close}
        />
      ) : null}
      {loras.length === 0 ? null : (
        <ol className="lora-list" aria-label="LoRAs applied, in order">
          {loras.map((lora, index) => {
            const model = byName.get(lora.name);
            const words = model?.triggerWords ?? [];
            return (
              <li key={`${lora.name}-${index}`} className="lora-row">
                <span className="lora-name" title={lora.name}>
                  {model?.name ?? lora.name}
                </span>
                <button
                  type="button"
                  className="icon-btn lora-remove"
                  aria-label={`Remove ${lora.name}`}
                  title="Remove"
                  onClick={() => update({ loras: removeLora(loras, index) })}
                >
                  ×
                </button>
                <input
                  type="range"
                  className="lora-slider"
                  aria-label={`Weight of ${lora.name}`}
                  min={SLIDER.min}
                  max={SLIDER.max}
                  step={SLIDER.step}
                  value={Math.min(SLIDER.max, Math.max(SLIDER.min, lora.weight))}
                  onChange={(e) => update({ loras: setLoraWeight(loras, index, Number(e.target.value)) })}
                />
                <WeightBox
                  name={lora.name}
                  weight={lora.weight}
                  onWeight={(w) => update({ loras: setLoraWeight(store.getState().draft.loras, index, w) })}
                />
                {words.length === 0 ? null : (
                  <button
                    type="button"
                    className="link small lora-words"
                    title={words.join(', ')}
                    onClick={() =>
                      update({ prompt: withTriggerWords(store.getState().draft.prompt, words.slice(0, 3)) })
                    }
                  >
                    Add trigger words: {words.slice(0, 3).join(', ')}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {problems.map((problem) => (
        <p key={problem} className="field-error" role="alert">
          {problem}
        </p>
      ))}
    </div>
  );
}

/** The typed weight: its own text while typed ("-", "0."), the draft's weight once it reads as a number. */
function WeightBox({ name, weight, onWeight }: { name: string; weight: number; onWeight: (w: number) => void }) {
  const [text, setText] = useState<string | null>(null);
  return (
    <input
      type="number"
      className="lora-weight"
      aria-label={`Weight of ${name}, typed`}
      min={WEIGHT.min}
      max={WEIGHT.max}
      step={SLIDER.step}
      value={text ?? String(weight)}
      onChange={(e) => {
        setText(e.target.value);
        const typed = e.target.valueAsNumber;
        if (e.target.value !== '' && Number.isFinite(typed)) onWeight(typed);
      }}
      onBlur={() => setText(null)}
    />
  );
}

function LoraMenu({
  servers,
  onPick,
  onClose,
}: {
  servers: readonly ProviderInfo[];
  onPick: (name: string) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const library = useApp((s) => s.modelLibrary);
  const state = useApp((s) => s.modelsState);
  const error = useApp((s) => s.modelsError);
  const ensure = useApp((s) => s.ensureModels);
  const picked = useApp((s) => s.draft.loras);
  const [search, setSearch] = useState('');
  useEffect(() => void ensure(), [ensure]);
  const choices = useMemo(() => loraChoices(library?.items ?? [], servers, search), [library, servers, search]);
  const shown = choices.slice(0, SHOWN_CHOICES);
  return (
    <div className="lora-menu" role="dialog" aria-label="Add a LoRA">
      <input
        type="search"
        autoFocus
        aria-label="Search LoRAs"
        placeholder="Search LoRAs: name, base model, trigger words"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          } else if (e.key === 'Enter') {
            e.preventDefault();
            const first = shown.find((c) => !picked.some((p) => p.name === c.sendName));
            if (first !== undefined) onPick(first.sendName);
          }
        }}
      />
      {library === null ? (
        <p className="muted small">
          {state === 'error' ? `Your LoRAs could not be read: ${error}` : 'Loading your LoRAs…'}
        </p>
      ) : shown.length === 0 ? (
        <p className="muted small">{search === '' ? 'No LoRAs in your library yet.' : 'No LoRA matches.'}</p>
      ) : (
        <ul className="lora-choices">
          {shown.map((choice) => {
            const m = choice.model;
            const already = picked.some((p) => p.name === choice.sendName);
            return (
              <li key={m.key}>
                <button
                  type="button"
                  className={choice.onServer ? 'lora-choice' : 'lora-choice off-server'}
                  disabled={already}
                  onClick={() => onPick(choice.sendName)}
                >
                  {m.preview === undefined ? (
                    <span className="lora-thumb" aria-hidden="true" />
                  ) : (
                    <img className="lora-thumb" src={api.mediaUrl('thumb', m.preview.imageId)} alt="" />
                  )}
                  <span className="lora-choice-text">
                    <span className="lora-choice-name">{m.name}</span>
                    <span className="lora-choice-meta">
                      {[m.baseModel, m.triggerWords.slice(0, 3).join(', ')]
                        .filter((t) => t !== undefined && t !== '')
                        .join(' · ')}
                    </span>
                  </span>
                  {already ? (
                    <span className="badge">added</span>
                  ) : choice.onServer ? null : (
                    <span className="badge warn">not on this server</span>
                  )}
                </button>
              </li>
            );
          })}
          {choices.length > shown.length ? (
            <li className="muted small lora-more">{choices.length - shown.length} more: search to narrow</li>
          ) : null}
        </ul>
      )}
    </div>
  );
}
