/**
 * Where is the JSON syntax error? Node's JSON.parse says what went wrong but
 * not (in Node 20) where, and designers editing breed files need a line and
 * column. This is a small strict JSON scanner, iterative so that deeply
 * nested input cannot overflow the stack, used only after JSON.parse fails.
 */

export interface JsonSyntaxProblem {
  readonly message: string;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** Parse `text` as JSON; on failure return where and why instead of throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: JsonSyntaxProblem } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: findJsonSyntaxError(text) ?? at(text, 0, 'Invalid JSON.') };
  }
}

/** The first syntax error in `text`, or null when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | null {
  const stack: ('{' | '[')[] = [];
  let pos = 0;
  let wantValue = true;
  const skip = (): void => {
    WHITESPACE.lastIndex = pos;
    WHITESPACE.exec(text);
    pos = WHITESPACE.lastIndex;
  };
  const fail = (message: string): JsonSyntaxProblem =>
    at(text, pos, pos >= text.length ? `${message} (unexpected end of input)` : message);

  for (;;) {
    skip();
    if (wantValue) {
      const c = text[pos];
      if (c === '{' || c === '[') {
        stack.push(c);
        pos++;
        skip();
        if (text[pos] === (c === '{' ? '}' : ']')) {
          stack.pop();
          pos++;
          wantValue = false;
          continue;
        }
        if (c === '{') {
          const err = scanKey();
          if (err) return err;
        }
        continue;
      }
      const err = scanScalar();
      if (err) return err;
      wantValue = false;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return pos < text.length ? fail('Unexpected text after the JSON value.') : null;
    const c = text[pos];
    if (c === ',') {
      pos++;
      wantValue = true;
      if (top === '{') {
        skip();
        const err = scanKey();
        if (err) return err;
      }
    } else if (c === (top === '{' ? '}' : ']')) {
      stack.pop();
      pos++;
    } else {
      return fail(top === '{' ? "Expected ',' or '}'." : "Expected ',' or ']'.");
    }
  }

  function scanKey(): JsonSyntaxProblem | null {
    if (text[pos] !== '"') return fail('Expected a property name in double quotes.');
    const err = scanString();
    if (err) return err;
    skip();
    if (text[pos] !== ':') return fail("Expected ':' after the property name.");
    pos++;
    wantValue = true;
    return null;
  }

  function scanScalar(): JsonSyntaxProblem | null {
    const c = text[pos];
    if (c === '"') return scanString();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return null;
      }
    }
    NUMBER.lastIndex = pos;
    if (NUMBER.exec(text) !== null) {
      pos = NUMBER.lastIndex;
      return null;
    }
    return fail('Expected a value.');
  }

  function scanString(): JsonSyntaxProblem | null {
    pos++;
    while (pos < text.length) {
      const code = text.charCodeAt(pos);
      if (code === 34) {
        pos++;
        return null;
      }
      if (code < 0x20) return fail('Control character in a string.');
      if (code === 92) {
        const e = text[pos + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) return fail('Bad \\u escape in a string.');
          pos += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return fail('Bad escape in a string.');
        pos += 2;
        continue;
      }
      pos++;
    }
    return fail('Unterminated string.');
  }
}

function at(text: string, offset: number, message: string): JsonSyntaxProblem {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { message, offset, line, column: offset - lineStart + 1 };
}
