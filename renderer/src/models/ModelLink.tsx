import type { ModelKind } from '../../../shared/contract';
import { useAppStore } from '../store/context';
import { shortName } from './model-view';
import './model-link.css';

/** A model or LoRA named in Details: its name runs the gallery search for its images; "In model library" opens its card. */
export function ModelLink({
  kind,
  name,
  weight,
}: {
  kind: Extract<ModelKind, 'checkpoint' | 'lora'>;
  name: string;
  weight?: number | undefined;
}) {
  const store = useAppStore();
  const leaveViewer = () => {
    const s = store.getState();
    s.closeEditor();
    s.closeViewer();
  };
  const shown = shortName(name);
  return (
    <span className="model-link">
      <button
        type="button"
        className="link"
        title={`Show every image made with ${shown}`}
        onClick={() => {
          leaveViewer();
          store.getState().showModelImages({ kind, name: shown });
        }}
      >
        {name}
      </button>
      {weight === undefined ? null : <span className="muted"> × {weight}</span>}{' '}
      <button
        type="button"
        className="link small muted-link"
        aria-label={`In model library: ${shown}`}
        onClick={() => {
          leaveViewer();
          store.getState().openModels({ search: shown, kind });
        }}
      >
        In model library
      </button>
    </span>
  );
}
