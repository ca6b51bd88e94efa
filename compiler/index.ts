/**
 * The compiler's public API: source → Module, plus the stages on their own
 * for tools (the playground highlights tokens, shows the AST, lists errors).
 */

export { compile, MAX_REPORTED_ERRORS, type CompileOptions, type CompileResult } from './compile.js';
export { tokenize, type TokenInfo } from './lexer.js';
export { parse, type ParseResult } from './parse.js';
export { formatSource, type FormatOptions, type FormatResult } from './format/index.js';
export { formatDiagnosticClox, type Diagnostic, type Severity } from './diagnostics.js';
export { formatCodeFrame, formatDiagnostics, formatLocation } from './code-frame.js';
export { KEYWORDS, type TokenKind } from './tokens.js';
export * from './limits.js';
export type * from './ast.js';
