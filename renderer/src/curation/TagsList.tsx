import { useEffect, useState } from 'react';
import { formatTerm } from '../../../shared/query';
import { formatNumber } from '../common/format';
import { useApp, useAppStore } from '../store/context';
import { NameField } from './NameField';

/** The library's tags with their counts: click one to see its images; rename it, or rename it to another to merge them. */
export function TagsList() {
  const store = useAppStore();
  const tags = useApp((s) => s.tags);
  const search = useApp((s) => s.filters.search.trim());
  const [renaming, setRenaming] = useState<string | null>(null);
  useEffect(() => {
    if (store.getState().tags === null) void store.getState().loadTags();
  }, [store]);
  if (tags === null || tags.length === 0) return null;
  return (
    <section className="nav-section" aria-label="Tags">
      <header>
        <h2>Tags</h2>
      </header>
      <ul className="tag-list">
        {tags.map((tag) => {
          const term = formatTerm({ kind: 'text', key: 'tag', text: tag.name });
          if (renaming === tag.name) {
            return (
              <li key={tag.name}>
                <NameField
                  label={`Rename tag ${tag.name} (an existing name merges them)`}
                  initial={tag.name}
                  onDone={(name) => {
                    setRenaming(null);
                    if (name !== null && name !== tag.name) void store.getState().renameTag(tag.name, name);
                  }}
                />
              </li>
            );
          }
          return (
            <li key={tag.name} className={search === term ? 'tag-row active' : 'tag-row'}>
              <button
                type="button"
                className="board-open"
                aria-pressed={search === term}
                aria-label={`Tag ${tag.name}, ${tag.count} image${tag.count === 1 ? '' : 's'}`}
                onClick={() => void store.getState().setSearch(search === term ? '' : term)}
              >
                <span className="board-icon" aria-hidden="true">
                  #
                </span>
                <span className="board-name">{tag.name}</span>
                <span className="count">{formatNumber(tag.count)}</span>
              </button>
              <span className="board-tools">
                <button
                  type="button"
                  className="icon"
                  aria-label={`Rename tag ${tag.name}`}
                  title="Rename or merge"
                  onClick={() => setRenaming(tag.name)}
                >
                  ✎
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
