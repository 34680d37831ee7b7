import { describe, expect, it } from 'vitest';
import { KEY_HELP } from '../../../../shared/query/help.js';
import { formatQuery, parseQuery } from '../../../../shared/query/index.js';

const ID = '0190a6e2-1234-7abc-8def-0123456789ab';

describe('sweep: in the search language', () => {
  it('takes a sweep’s id or its first 8 or more characters, and formats back to the same query', () => {
    for (const [text, id] of [
      [`sweep:${ID}`, ID],
      [`sweep:${ID.toUpperCase()}`, ID],
      ['sweep:0190a6e2', '0190a6e2'],
      ['sweep:0190a6e2-12', '0190a6e2-12'],
    ] as const) {
      const parsed = parseQuery(text);
      expect(parsed).toEqual({ ok: true, query: { clauses: [{ negated: false, anyOf: [{ kind: 'sweep', id }] }] } });
      if (parsed.ok) expect(parseQuery(formatQuery(parsed.query))).toEqual(parsed);
    }
  });

  it('refuses what is not an id’s start, saying what it takes', () => {
    for (const text of ['sweep:0190a6e', 'sweep:fox', 'sweep:0190a6e2x', `sweep:${ID}0`])
      expect(parseQuery(text)).toMatchObject({
        ok: false,
        error: { message: "sweep: takes a sweep's id, or its first 8 or more characters." },
      });
  });

  it('is on the help card', () => {
    expect(KEY_HELP.find((k) => k.key === 'sweep')).toMatchObject({ example: 'sweep:0190a6e2' });
  });
});
