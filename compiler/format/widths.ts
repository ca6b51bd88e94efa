/**
 * The formatter's widths, apart from the formatter itself so the CLI can
 * describe `fmt --indent` without loading the parser.
 */
export const DEFAULT_INDENT_WIDTH = 2;
/** Lines longer than this are broken where the style allows (see docs/language.md). */
export const LINE_WIDTH = 100;
export const MAX_INDENT_WIDTH = 16;
