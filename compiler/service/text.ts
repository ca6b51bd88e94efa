/**
 * Positions in a source text. The service speaks in 0-based UTF-16 offsets
 * (what JavaScript strings, Monaco's `getOffsetAt` and LSP's default
 * position encoding count); each editor adapter converts them with its own
 * document model. The compiler's diagnostics are 1-based line and column,
 * counting lines by '\n' only, as clox does: `offsetAt` reads them.
 */

/** [start, end) in 0-based offsets. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The offset of a compiler (1-based) line and column, clamped into the text. */
  offsetAt(line: number, column: number): number {
    const l = Math.min(Math.max(1, Math.floor(line) || 1), this.starts.length);
    const start = this.starts[l - 1]!;
    const end = l < this.starts.length ? this.starts[l]! - 1 : this.text.length;
    return Math.min(Math.max(start, start + Math.floor(column) - 1), end);
  }

  /** The 1-based line and column of an offset (clamped). */
  positionAt(offset: number): { line: number; column: number } {
    const o = Math.min(Math.max(0, Math.floor(offset) || 0), this.text.length);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - this.starts[lo]! + 1 };
  }

  /** The text of a 1-based line, without its '\n'. */
  lineText(line: number): string {
    if (line < 1 || line > this.starts.length) return '';
    const start = this.starts[line - 1]!;
    const end = line < this.starts.length ? this.starts[line]! - 1 : this.text.length;
    return this.text.slice(start, end);
  }
}

export function clampOffset(offset: number, text: string): number {
  return Number.isFinite(offset) ? Math.min(Math.max(0, Math.floor(offset)), text.length) : text.length;
}

/** The identifier around `offset`, as [start, end) offsets. */
export function wordAt(source: string, offset: number): { word: string; start: number; end: number } | null {
  let start = offset;
  let end = offset;
  while (start > 0 && /\w/.test(source[start - 1]!)) start--;
  while (end < source.length && /\w/.test(source[end]!)) end++;
  if (start === end || !/^[A-Za-z_]/.test(source.slice(start, end))) return null;
  return { word: source.slice(start, end), start, end };
}
