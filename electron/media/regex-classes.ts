/**
 * The character classes of JavaScript regular expressions (no `u` flag), one UTF-16 code unit at a time: hand-written
 * scanners that replace backtracking patterns use these, so they accept exactly what the patterns accepted.
 */

/** `\s`: WhiteSpace and LineTerminator, the set String.prototype.trim removes. */
export function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** `\w`: ASCII letters, digits and underscore. */
export function isWordChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f
  );
}

/** What `.` does not match without the `s` flag. */
export function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}
