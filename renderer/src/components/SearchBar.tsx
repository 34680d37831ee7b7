import { useEffect, useRef, useState } from 'react';
import { useApp } from '../store/context';

const DEBOUNCE_MS = 150;

export function SearchBar() {
  const committed = useApp((s) => s.filters.search);
  const setFilters = useApp((s) => s.setFilters);
  const [text, setText] = useState(committed);
  const timer = useRef<number | null>(null);

  useEffect(() => setText(committed), [committed]);
  useEffect(() => () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
  }, []);

  const onChange = (value: string) => {
    setText(value);
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      timer.current = null;
      setFilters({ search: value });
    }, DEBOUNCE_MS);
  };

  return (
    <div className="search" role="search">
      <input
        id="search"
        type="search"
        aria-label="Search"
        placeholder="Search prompts  ( / )"
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text !== '') {
            e.preventDefault();
            onChange('');
          } else if (e.key === 'Escape') {
            e.currentTarget.blur();
          }
        }}
      />
    </div>
  );
}
