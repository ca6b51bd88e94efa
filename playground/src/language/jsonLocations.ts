/**
 * A small JSON reader that remembers where every key and value starts, so the
 * breeds editor can put a validation error ("troll_archer.parent: unknown
 * breed") on the right line. JSON.parse gives the values; this gives positions
 * and friendlier syntax errors with line and column.
 */

export interface JsonSpan {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export type JsonPath = readonly (string | number)[];

export type JsonReadResult =
  | { readonly ok: true; readonly value: unknown; readonly spans: ReadonlyMap<string, JsonSpan> }
  | { readonly ok: false; readonly message: string; readonly span: JsonSpan };

export function pathKey(path: JsonPath): string {
  return JSON.stringify(path);
}

class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

class Reader {
  private pos = 0;
  readonly spans = new Map<string, JsonSpan>();
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  where(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }

  span(start: number, end: number): JsonSpan {
    const a = this.where(start);
    const b = this.where(Math.max(start + 1, end));
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }

  readDocument(): void {
    this.value([]);
    this.skipSpace();
    if (this.pos < this.text.length) throw new JsonSyntaxError('Unexpected text after the JSON value.', this.pos);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && ' \t\r\n'.includes(this.text[this.pos]!)) this.pos++;
  }

  private expect(ch: string, what: string): void {
    this.skipSpace();
    if (this.text[this.pos] !== ch) throw new JsonSyntaxError(`Expected ${what}.`, this.pos);
    this.pos++;
  }

  private value(path: JsonPath): void {
    this.skipSpace();
    const start = this.pos;
    const c = this.text[this.pos];
    if (c === '{') this.object(path);
    else if (c === '[') this.array(path);
    else if (c === '"') this.string();
    else if (c !== undefined && /[-0-9]/.test(c)) this.number();
    else if (this.text.startsWith('true', this.pos)) this.pos += 4;
    else if (this.text.startsWith('false', this.pos)) this.pos += 5;
    else if (this.text.startsWith('null', this.pos)) this.pos += 4;
    else throw new JsonSyntaxError(c === undefined ? 'Unexpected end of JSON.' : `Unexpected '${c}': expected a value.`, this.pos);
    if (!this.spans.has(pathKey(path))) this.spans.set(pathKey(path), this.span(start, this.pos));
  }

  private object(path: JsonPath): void {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipSpace();
      const keyStart = this.pos;
      if (this.text[this.pos] !== '"') throw new JsonSyntaxError('Expected a property name in double quotes.', this.pos);
      const key = this.string();
      // The key's span stands for the member: errors about a field point at its name.
      this.spans.set(pathKey([...path, key]), this.span(keyStart, this.pos));
      this.expect(':', "':' after the property name");
      this.value([...path, key]);
      this.skipSpace();
      if (this.text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (this.text[this.pos] === '}') {
        this.pos++;
        return;
      }
      throw new JsonSyntaxError("Expected ',' or '}' after a property value.", this.pos);
    }
  }

  private array(path: JsonPath): void {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (let i = 0; ; i++) {
      this.value([...path, i]);
      this.skipSpace();
      if (this.text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (this.text[this.pos] === ']') {
        this.pos++;
        return;
      }
      throw new JsonSyntaxError("Expected ',' or ']' after an array element.", this.pos);
    }
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.text.length && this.text[this.pos] !== '"') {
      if (this.text[this.pos] === '\\') this.pos++;
      else if (this.text[this.pos] === '\n') throw new JsonSyntaxError('Unterminated string.', start);
      this.pos++;
    }
    if (this.pos >= this.text.length) throw new JsonSyntaxError('Unterminated string.', start);
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      throw new JsonSyntaxError('Invalid escape in string.', start);
    }
  }

  private number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (!m) throw new JsonSyntaxError('Invalid number.', this.pos);
    this.pos += m[0].length;
  }
}

export function readJson(text: string): JsonReadResult {
  const reader = new Reader(text);
  try {
    reader.readDocument();
    return { ok: true, value: JSON.parse(text) as unknown, spans: reader.spans };
  } catch (e) {
    const offset = e instanceof JsonSyntaxError ? e.offset : 0;
    const message = e instanceof Error ? e.message : 'Invalid JSON.';
    return { ok: false, message, span: reader.span(offset, offset + 1) };
  }
}

/** The span of the deepest existing prefix of `path` (a missing field points at its object). */
export function locatePath(spans: ReadonlyMap<string, JsonSpan>, path: JsonPath): JsonSpan | null {
  for (let n = path.length; n >= 0; n--) {
    const span = spans.get(pathKey(path.slice(0, n)));
    if (span) return span;
  }
  return null;
}
