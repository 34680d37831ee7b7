/** The search box's help card: the keys of the query language, each with an example. */
const ROWS: [string, string][] = [
  // Examples on one row are apart by two spaces; each shows as its own chip.
  ['red fox', 'both words, anywhere in the prompt'],
  ['"red fox"', 'the exact phrase'],
  ['-blurry', 'without the word'],
  ['fox | wolf', 'either'],
  ['negative:text', 'in the negative prompt'],
  ['model:sdxl', 'model (also sampler: scheduler: lora:)'],
  ['seed:1234  seed:12*  seed:100-200', 'a seed, a prefix, a range'],
  ['steps:20-30  cfg:>=7', 'numbers: = > >= < <= or a range'],
  ['size:512x768  w:>=1024  h:<768', 'size, width, height'],
  ['ratio:portrait  ratio:16:9', 'portrait, landscape, square or w:h'],
  ['rating:>=4  is:favorite', 'your ratings and favourites'],
  ['tag:sky  board:"Moodboard"', 'tags and boards'],
  ['date:today  date:7d  date:2026-11', 'also yesterday, or 2026-01-01..2026-03-31'],
  ['source:comfyui  provider:builtin', 'where it came from'],
  ['status:failed  is:missing', 'failed jobs, files gone from disk'],
  ['path:renders/2026', 'where an imported original lives'],
];

export function SearchHelp({ onClose }: { onClose: () => void }) {
  return (
    <div className="search-help" role="dialog" aria-label="Search help">
      <header>
        <strong>Search</strong>
        <span className="muted small">Case and accents don’t matter: cervena finds červená.</span>
        <button type="button" className="icon" aria-label="Close search help" onClick={onClose}>
          ×
        </button>
      </header>
      <table>
        <tbody>
          {ROWS.map(([example, what]) => (
            <tr key={example}>
              <td>
                {example.split('  ').map((one) => (
                  <code key={one}>{one}</code>
                ))}
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
