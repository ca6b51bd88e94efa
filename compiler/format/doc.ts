/**
 * The formatter's layout language: a small Wadler/Prettier-style document.
 * The AST printer (print-statements.ts, print-expressions.ts) says what may
 * break and how it indents; `layout` decides, for a line width, which groups
 * fit on one line. A group that does not fit breaks every `line` directly in
 * it; a comment inside a group always breaks it (a `//` comment runs to the
 * end of its line, so nothing may follow it there).
 *
 * Blank lines are requests, honoured only where the layout already starts a
 * new line (never right after an opening bracket): which lines start where
 * does not depend on them, so formatting twice gives the same text.
 */

export type Doc = string | readonly Doc[] | DocNode;

type DocNode =
  /** A space when its group fits on one line, a line break when it does not. */
  | { readonly kind: 'line' }
  /** Nothing when its group fits on one line, a line break when it does not. */
  | { readonly kind: 'softline' }
  /** Always a line break (breaks every group around it). */
  | { readonly kind: 'hardline' }
  | { readonly kind: 'indent'; readonly contents: Doc }
  | Group
  /** An empty line before the current one, if the layout starts a line here. */
  | { readonly kind: 'blank' }
  | Comment;

interface Group {
  readonly kind: 'group';
  readonly contents: Doc;
  /** Set by propagateBreaks: the group holds a hard line or a comment, so it cannot be flat. */
  breaks: boolean;
  /** Flat even if it does not fit (unless it holds a comment). */
  readonly keepFlat: boolean;
}

/** A `//` comment. Own-line comments start a line; a trailing one follows its token after a space. */
interface Comment {
  readonly kind: 'comment';
  readonly text: string;
  readonly ownLine: boolean;
  /** Own-line only: the source had an empty line above it. */
  readonly blankBefore: boolean;
}

export const line: Doc = { kind: 'line' };
export const softline: Doc = { kind: 'softline' };
export const hardline: Doc = { kind: 'hardline' };
export const blank: Doc = { kind: 'blank' };

export function indent(contents: Doc): Doc {
  return { kind: 'indent', contents };
}

export function group(contents: Doc): Doc {
  return { kind: 'group', contents, breaks: false, keepFlat: false };
}

/** On one line whatever its length (a template string's substitution), unless a comment in it ends a line. */
export function flat(contents: Doc): Doc {
  return { kind: 'group', contents, breaks: false, keepFlat: true };
}

export function comment(text: string, ownLine: boolean, blankBefore: boolean): Doc {
  return { kind: 'comment', text, ownLine, blankBefore };
}

/** `docs` with `separator` between each two. */
export function join(separator: Doc, docs: readonly Doc[]): Doc[] {
  const out: Doc[] = [];
  docs.forEach((doc, i) => {
    if (i > 0) out.push(separator);
    out.push(doc);
  });
  return out;
}

/** Marks every group that holds a hard line or a comment as broken; returns whether `doc` holds one. */
function propagateBreaks(doc: Doc): boolean {
  if (typeof doc === 'string') return false;
  if (Array.isArray(doc)) {
    let any = false;
    for (const part of doc as readonly Doc[]) if (propagateBreaks(part)) any = true;
    return any;
  }
  const node = doc as DocNode;
  switch (node.kind) {
    case 'hardline':
    case 'comment':
      return true;
    case 'indent':
      return propagateBreaks(node.contents);
    case 'group':
      if (propagateBreaks(node.contents)) node.breaks = true;
      return node.breaks;
    default:
      return false;
  }
}

type Mode = 'flat' | 'break';
interface Command {
  readonly indent: number;
  readonly mode: Mode;
  readonly doc: Doc;
}

/** Lays `doc` out in lines of at most `width` columns where it can; returns the text (no final newline). */
export function layout(doc: Doc, width: number, indentWidth: number): string {
  propagateBreaks(doc);
  const out = new Output();
  const stack: Command[] = [{ indent: 0, mode: 'break', doc }];
  while (stack.length > 0) {
    const { indent: ind, mode, doc: current } = stack.pop()!;
    if (typeof current === 'string') {
      out.text(current, ind);
      continue;
    }
    if (Array.isArray(current)) {
      const parts = current as readonly Doc[];
      for (let i = parts.length - 1; i >= 0; i--) stack.push({ indent: ind, mode, doc: parts[i]! });
      continue;
    }
    const node = current as DocNode;
    switch (node.kind) {
      case 'line':
      case 'softline':
        if (mode === 'break' || out.mustBreak) out.newline(ind);
        else if (node.kind === 'line') out.text(' ', ind);
        break;
      case 'hardline':
        out.newline(ind);
        break;
      case 'indent':
        stack.push({ indent: ind + indentWidth, mode, doc: node.contents });
        break;
      case 'group': {
        const flat = !node.breaks && (mode === 'flat' || node.keepFlat || fits({ indent: ind, mode: 'flat', doc: node.contents }, stack, width - out.column));
        stack.push({ indent: ind, mode: flat ? 'flat' : 'break', doc: node.contents });
        break;
      }
      case 'blank':
        out.blankLine(ind);
        break;
      case 'comment':
        out.comment(node, ind);
        break;
    }
  }
  return out.finish();
}

/**
 * Does `next` fit flat in `room` columns, together with what follows it up
 * to the next possible line break (Prettier's rule: `f(a)` must leave room
 * for the `;` after it)?
 */
function fits(next: Command, rest: readonly Command[], room: number): boolean {
  const todo: Command[] = [next];
  let restIndex = rest.length - 1;
  while (room >= 0) {
    if (todo.length === 0) {
      if (restIndex < 0) return true;
      todo.push(rest[restIndex--]!);
      continue;
    }
    const { mode, doc } = todo.pop()!;
    if (typeof doc === 'string') {
      const newline = doc.indexOf('\n');
      room -= newline === -1 ? doc.length : newline;
      if (newline !== -1) return room >= 0;
      continue;
    }
    if (Array.isArray(doc)) {
      const parts = doc as readonly Doc[];
      for (let i = parts.length - 1; i >= 0; i--) todo.push({ indent: 0, mode, doc: parts[i]! });
      continue;
    }
    const node = doc as DocNode;
    switch (node.kind) {
      case 'line':
        if (mode === 'break') return true;
        room -= 1;
        break;
      case 'softline':
        if (mode === 'break') return true;
        break;
      case 'hardline':
        return true;
      case 'comment':
        // Only reached in what follows the group (a comment inside it breaks it anyway);
        // a trailing comment may run past the width rather than break the code before it.
        return true;
      case 'indent':
        todo.push({ indent: 0, mode, doc: node.contents });
        break;
      case 'group':
        todo.push({ indent: 0, mode: node.breaks ? 'break' : mode, doc: node.contents });
        break;
      case 'blank':
        break;
    }
  }
  return false;
}

/** The text being built, line by line (so a blank line can be put before the current one). */
class Output {
  private readonly lines: string[] = [];
  private current = '';
  /** The current line holds only indentation so far. */
  private empty = true;
  /** A `//` comment ended the current line: the next text starts a new one. */
  mustBreak = false;

  get column(): number {
    return this.current.length;
  }

  text(text: string, ind: number): void {
    if (text === '') return;
    if (this.mustBreak) this.newline(ind);
    if (this.empty) {
      if (text === ' ') return;
      this.current = ' '.repeat(ind);
    }
    const newline = text.lastIndexOf('\n');
    if (newline === -1) {
      this.current += text;
    } else {
      // A multi-line string token: its lines are kept exactly as written.
      const parts = (this.current + text).split('\n');
      this.current = parts.pop()!;
      this.lines.push(...parts);
    }
    this.empty = false;
  }

  newline(ind: number): void {
    this.lines.push(this.empty ? '' : this.current);
    this.current = ' '.repeat(ind);
    this.empty = true;
    this.mustBreak = false;
  }

  /** An empty line above the current one, unless the current one has text, the last is empty, or it opens a bracket. */
  blankLine(ind: number): void {
    if (this.mustBreak) this.newline(ind);
    if (!this.empty || this.lines.length === 0) return;
    const previous = this.lines[this.lines.length - 1]!;
    if (previous === '' || /[{([]$/.test(previous)) return;
    this.lines.push('');
  }

  comment(node: Comment, ind: number): void {
    if (node.ownLine) {
      if (!this.empty) this.newline(ind);
      if (node.blankBefore) this.blankLine(ind);
      this.mustBreak = false;
      this.text(node.text, ind);
    } else {
      this.mustBreak = false;
      if (!this.empty) this.current += ' ';
      this.text(node.text, ind);
    }
    this.mustBreak = true;
  }

  finish(): string {
    if (!this.empty) this.lines.push(this.current);
    while (this.lines.length > 0 && this.lines[this.lines.length - 1] === '') this.lines.pop();
    return this.lines.join('\n');
  }
}
