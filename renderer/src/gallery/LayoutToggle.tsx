import type { Layout } from './layout-mode';
import './list.css';

const CHOICES: { id: Layout; label: string; title: string }[] = [
  { id: 'grid', label: 'Grid', title: 'Images first, in a grid' },
  { id: 'list', label: 'List', title: 'A compact list with prompt, model, size and date' },
];

/** Grid or List: a two-button segmented control, the pressed one is the layout shown. */
export function LayoutToggle({ layout, onChange }: { layout: Layout; onChange(layout: Layout): void }) {
  return (
    <div className="segmented" role="group" aria-label="Layout">
      {CHOICES.map((choice) => (
        <button
          key={choice.id}
          type="button"
          aria-pressed={layout === choice.id}
          title={choice.title}
          onClick={() => onChange(choice.id)}
        >
          <span className={`layout-icon ${choice.id}`} aria-hidden="true" />
          {choice.label}
        </button>
      ))}
    </div>
  );
}
