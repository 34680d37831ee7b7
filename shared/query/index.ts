export * from './ast.js';
export { parseQuery } from './parse.js';
export { formatQuery, formatTerm } from './format.js';
export { KEY_HELP, SYNTAX_HELP } from './help.js';
