import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readA1111Sidecar } from '../../../../electron/library/readers/a1111.js';
import { lorasInPrompt } from '../../../../electron/library/readers/a1111-loras.js';
import { newFill, put, asSeed } from '../../../../electron/library/readers/fields.js';
import { readFooocusJson } from '../../../../electron/library/readers/fooocus-json.js';
import { readGeneric } from '../../../../electron/library/readers/generic.js';
import { scanJsonTokens } from '../../../../electron/library/readers/json-tokens.js';
import { readMidjourney } from '../../../../electron/library/readers/midjourney.js';
import { trimTrailingNuls } from '../../../../electron/library/readers/user-comment.js';

/**
 * Each linear scanner against the backtracking pattern it replaced (kept here as the oracle), on short texts made
 * of the characters that pattern cares about: the same answer on every input, only without the quadratic cost.
 */
const textOf = (pieces: string[], maxLength = 30) =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
const RUNS = { numRuns: 10_000 };

describe('scanners answer as the patterns they replaced', () => {
  it('LoRA tags: <(?:lora|lyco):([^:>]+)(?::([^:>]*))?(?::[^>]*)?>', () => {
    const LORA_TAG = /<(?:lora|lyco):([^:>]+)(?::([^:>]*))?(?::[^>]*)?>/g;
    const oracle = (prompt: string) =>
      [...prompt.matchAll(LORA_TAG)].map((m) => {
        const weight = m[2] === undefined ? 1 : Number(m[2]);
        return Number.isFinite(weight) ? { name: m[1]!.trim(), weight } : { name: m[1]!.trim() };
      });
    fc.assert(
      fc.property(textOf(['<lora:', '<lyco:', '<', '>', ':', 'a', ' ', '0.5', 'x', '<lor', 'lora:']), (p) => {
        expect(lorasInPrompt(p)).toEqual(oracle(p));
      }),
      RUNS,
    );
  });

  it('JSON tokens: "(?:[^"\\\\]|\\\\.)*"|-?\\b(?:NaN|Infinity)\\b|\\d{16,}', () => {
    const TOKENS = /"(?:[^"\\]|\\.)*"|-?\b(?:NaN|Infinity)\b|\d{16,}/g;
    const oracle = (text: string) => {
      let long = false;
      const out = text.replace(TOKENS, (token) => {
        if (token.startsWith('"')) return token;
        if (token.endsWith('NaN') || token.endsWith('Infinity')) return JSON.stringify(token);
        long = true;
        return token;
      });
      return { text: out, long };
    };
    const pieces = [
      '"',
      '\\',
      'N',
      'NaN',
      'Infinity',
      '-',
      'a',
      '_',
      '1',
      '1234567890123456',
      ' ',
      '\n',
      '\u2028',
      ':',
      'aN',
    ];
    fc.assert(
      fc.property(textOf(pieces), (t) => {
        expect(scanJsonTokens(t)).toEqual(oracle(t));
      }),
      RUNS,
    );
  });

  it('a params line in a sidecar: (^|\\n)\\s*(Steps|Sampler|Seed|CFG scale|Size|Model):\\s*\\S', () => {
    // JSON is left to the JSON readers; a prompt may start with a bracket (prompt editing) when it is not JSON.
    const parses = (text: string) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    };
    const oracle = (text: string) =>
      text.trim() !== '' &&
      !(/^\s*[[{]/.test(text) && parses(text)) &&
      (/(^|\n)\s*(Steps|Sampler|Seed|CFG scale|Size|Model):\s*\S/.test(text) || text.includes('\nNegative prompt:'));
    const pieces = [
      'Steps:',
      'Seed:',
      'CFG scale:',
      'Size',
      ':',
      ' ',
      '\n',
      '\r',
      '\u00a0',
      'x',
      'a',
      '\nNegative prompt:',
      '{',
      '[',
      ']',
      '1',
    ];
    fc.assert(
      fc.property(textOf(pieces), (t) => {
        expect(readA1111Sidecar(t) !== undefined).toBe(oracle(t));
      }),
      RUNS,
    );
  });

  it('a Midjourney Job ID: \\s*Job ID:\\s*<uuid>\\s*$ (i)', () => {
    const JOB_ID = /\s*Job ID:\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/i;
    const uuid = '8b6a2c1e-4f3d-4e2a-9c1b-0a1b2c3d4e5f';
    const pieces = [
      'Job ID:',
      'job id:',
      ' ',
      '\n',
      '\u00a0',
      uuid,
      uuid.toUpperCase(),
      uuid.slice(1),
      'a',
      ' --v 6',
      ' --no red',
      'İ',
    ];
    fc.assert(
      fc.property(textOf(pieces, 12), (t) => {
        const read = readMidjourney(new Map([['Description', t]]));
        expect(read !== undefined).toBe(JOB_ID.test(t));
        if (read === undefined) return;
        const body = t.replace(JOB_ID, '');
        const flagAt = body.search(/(^|\s)--[a-z]/i);
        expect(read.settings.prompt).toBe((flagAt < 0 ? body : body.slice(0, flagAt)).trim() || undefined);
      }),
      RUNS,
    );
  });

  it('an XMP description: the first rdf:li inside the first dc:description, else its plain text, else the attribute', () => {
    // The first whole <dc:description tag; an rdf:li before that element closes; its text when it holds no markup.
    const FIRST = '^(?:(?!<dc:description\\b)[\\s\\S])*<dc:description\\b';
    const ALT = new RegExp(
      `${FIRST}[^>]*>(?:(?!<\\/dc:description>)[\\s\\S])*?<rdf:li\\b[^>]*>([\\s\\S]*?)<\\/rdf:li>`,
    );
    const SIMPLE = new RegExp(`${FIRST}[^>]*(?<!\\/)>([^<]*)<\\/dc:description>`);
    const ATTRIBUTE = /\bdc:description="([^"]*)"/;
    const pieces = [
      '<dc:description',
      '<dc:descriptionX',
      '</dc:description>',
      '/>',
      '>',
      '<rdf:li',
      '<rdf:lix',
      '</rdf:li>',
      ' ',
      'a',
      'dc:description="',
      '"',
      '<',
    ];
    fc.assert(
      fc.property(textOf(pieces, 14), (t) => {
        const found = (ALT.exec(t) ?? SIMPLE.exec(t) ?? ATTRIBUTE.exec(t))?.[1]?.trim();
        expect(readGeneric(new Map([['xmp', t]]))?.description).toBe(
          found === '' || found === 'default' ? undefined : found,
        );
      }),
      RUNS,
    );
  });

  it('a Fooocus resolution: ^\\s*\\(?\\s*(\\d+)\\s*[,x×]\\s*(\\d+)\\s*\\)?\\s*$', () => {
    const SIZE = /^\s*\(?\s*(\d+)\s*[,x×]\s*(\d+)\s*\)?\s*$/;
    fc.assert(
      fc.property(textOf(['(', ')', ' ', '\u00a0', '\n', '1', '23', ',', 'x', '×', 'a'], 14), (t) => {
        const m = SIZE.exec(t);
        const { width, height } = readFooocusJson({ resolution: t }).settings;
        const valid = m !== null && Number(m[1]) > 0 && Number(m[2]) > 0;
        expect(valid ? [width, height] : [undefined, undefined]).toEqual(
          valid ? [Number(m[1]), Number(m[2])] : [undefined, undefined],
        );
      }),
      RUNS,
    );
  });

  it('trailing NULs: \\0+$', () => {
    fc.assert(
      fc.property(textOf(['\0', 'a', ' ']), (t) => {
        expect(trimTrailingNuls(t)).toBe(t.replace(/\0+$/, ''));
      }),
      RUNS,
    );
  });

  it('a value named in a problem: quoted whole, then cut to 40 characters', () => {
    const oracle = (value: string) => {
      const text = JSON.stringify(value);
      return text.length > 40 ? `${text.slice(0, 40)}…` : text;
    };
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '\n', '"', '\ud83d', '\ude00', '\u0001', '\\'), maxLength: 60 }),
        (value) => {
          const fill = newFill();
          put(fill, 'seed', value, asSeed, 'seed');
          if (value !== '' && asSeed(value) === undefined)
            expect(fill.problems).toEqual([`seed: ${oracle(value)} could not be read`]);
        },
      ),
      RUNS,
    );
  });
});
