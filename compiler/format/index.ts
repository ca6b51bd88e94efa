/**
 * The formatter: one canonical layout for spell source (gofmt's lesson: no
 * options but the indent width). `cantrip fmt`, the language server and the
 * playground's Format Document all call formatSource.
 *
 * It keeps every token and comment in order (strings and template strings
 * byte for byte) and changes only the whitespace between them, so the
 * formatted file compiles to the same bytecode; text with syntax errors is
 * refused with the parser's own diagnostics. The style is described in
 * docs/language.md ("Formatting").
 */

import type { Diagnostic } from '../diagnostics.js';
import { lex } from '../lexer.js';
import { parse } from '../parse.js';
import { diagnosticAt } from '../parse-errors.js';
import { EMPTY_SPAN } from '../ast.js';
import { layout } from './doc.js';
import { printProgram } from './print-statements.js';
import { TokenStream } from './token-stream.js';
import { DEFAULT_INDENT_WIDTH, LINE_WIDTH, MAX_INDENT_WIDTH } from './widths.js';

export interface FormatOptions {
  /** Spaces per indentation level: an integer from 1 to 16; default 2. */
  readonly indentWidth?: number;
}

export type FormatResult = { ok: true; text: string } | { ok: false; diagnostics: Diagnostic[] };

export { DEFAULT_INDENT_WIDTH, LINE_WIDTH, MAX_INDENT_WIDTH } from './widths.js';

/** Source → its canonical layout, or the syntax errors that stop it being formatted. Never throws on any text. */
export function formatSource(source: string, options: FormatOptions = {}): FormatResult {
  const indentWidth = options.indentWidth ?? DEFAULT_INDENT_WIDTH;
  if (!Number.isInteger(indentWidth) || indentWidth < 1 || indentWidth > MAX_INDENT_WIDTH) {
    throw new RangeError(`indentWidth must be an integer from 1 to ${MAX_INDENT_WIDTH} (got ${String(indentWidth)})`);
  }
  const text = typeof source === 'string' ? source : String(source);
  const parsed = parse(text);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { ok: false, diagnostics: errors };
  try {
    const ast = parsed.ast;
    const { tokens, comments } = lex(text);
    const doc = printProgram(new TokenStream(tokens, comments), ast);
    const formatted = layout(doc, LINE_WIDTH, indentWidth);
    return { ok: true, text: formatted === '' ? '' : formatted + '\n' };
  } catch (error) {
    const message = error instanceof RangeError ? 'Program too deeply nested.' : 'Internal formatter error.';
    return { ok: false, diagnostics: [diagnosticAt('error', message, EMPTY_SPAN, '')] };
  }
}
