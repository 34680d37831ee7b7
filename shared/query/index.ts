export * from './ast.js';
export { parseQuery } from './parse.js';
export { formatQuery, formatTerm } from './format.js';
