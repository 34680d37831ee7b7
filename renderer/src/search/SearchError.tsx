import { errorPlace } from './suggestions';
import { useApp } from '../store/context';

/** Under the search box: the search the engine could not read, marked where, and why; the results stay as they were. */
export function SearchError() {
  const error = useApp((s) => s.searchError);
  if (error === null) return null;
  const place = errorPlace(error.text, error.at);
  return (
    <p className="search-error" role="alert">
      <span>Can’t read this search: {error.message}</span>
      <code aria-label={`at character ${error.at + 1}`}>
        {place.before}
        <mark className={place.mark === '' ? 'caret' : undefined}>{place.mark === '' ? ' ' : place.mark}</mark>
        {place.after}
      </code>
    </p>
  );
}
