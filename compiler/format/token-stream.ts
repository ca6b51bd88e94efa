/**
 * The source's tokens, handed to the printer one by one in source order,
 * each with the comments around it. The printer never invents or drops a
 * token: it asks for the next one (and says which it expects), so the
 * formatted text has exactly the source's tokens, and every comment comes
 * out next to the token it was next to.
 *
 * A comment on the same line as the token before it trails that token;
 * any other comment stands on its own line before the next token. An empty
 * line in the source before a comment or a token is kept as a request
 * (see doc.ts: honoured where the layout starts a line anyway).
 */

import type { IToken } from 'chevrotain';
import { blank, comment, type Doc } from './doc.js';

/** The printer asked for a token the source does not have there: a formatter bug, never shown as output. */
export class FormatterBug extends Error {
  override readonly name = 'FormatterBug';
}

/** A token's leading comments apart from its text, for closing brackets (their comments belong inside). */
export interface SplitToken {
  readonly leading: Doc;
  readonly token: Doc;
}

const CLOSERS = new Set(['}', ')', ']']);

export class TokenStream {
  private next = 0;
  private nextComment = 0;
  /** The last line of the last token or comment handed out (0 before the first). */
  private lastLine = 0;

  constructor(
    private readonly tokens: readonly IToken[],
    private readonly comments: readonly IToken[],
  ) {}

  /** The next token's text, without taking it. */
  peek(): string | undefined {
    return this.tokens[this.next]?.image;
  }

  /** The next token, with its comments; `expected` is its text when the printer knows it. */
  take(expected?: string): Doc {
    const { leading, token } = this.takeSplit(expected);
    return [leading, token];
  }

  /** Takes the next token if its text is `image`; else nothing. */
  takeIf(image: string): Doc {
    return this.peek() === image ? this.take(image) : '';
  }

  takeSplit(expected?: string): SplitToken {
    const tok = this.tokens[this.next];
    if (tok === undefined || (expected !== undefined && tok.image !== expected)) {
      throw new FormatterBug(`expected ${expected ?? 'a token'} but found ${tok === undefined ? 'the end' : `'${tok.image}'`}`);
    }
    this.next++;
    const leading = this.commentsBefore(tok.startOffset);
    const gap = (tok.startLine ?? 1) - this.lastLine >= 2 && this.lastLine > 0 && !CLOSERS.has(tok.image);
    this.lastLine = tok.endLine ?? tok.startLine ?? 1;
    const token: Doc[] = [gap ? blank : '', tok.image];
    const trailing = this.nextCommentIfOn(this.lastLine, this.tokens[this.next]?.startOffset ?? Infinity);
    if (trailing !== undefined) token.push(comment(commentText(trailing), false, false));
    return { leading, token };
  }

  /** Comments after the last token (at the end of the file). */
  rest(): Doc {
    if (this.next !== this.tokens.length) throw new FormatterBug(`'${this.tokens[this.next]!.image}' was not printed`);
    return this.commentsBefore(Infinity);
  }

  private commentsBefore(offset: number): Doc {
    const docs: Doc[] = [];
    for (let c = this.comments[this.nextComment]; c !== undefined && c.startOffset < offset; c = this.comments[this.nextComment]) {
      this.nextComment++;
      const line = c.startLine ?? 1;
      docs.push(comment(commentText(c), true, this.lastLine > 0 && line - this.lastLine >= 2));
      this.lastLine = line;
    }
    return docs;
  }

  private nextCommentIfOn(line: number, before: number): IToken | undefined {
    const c = this.comments[this.nextComment];
    if (c === undefined || c.startOffset >= before || c.startLine !== line) return undefined;
    this.nextComment++;
    return c;
  }
}

/** A `//` comment's text without trailing whitespace (a `\r` of a CRLF file among it). */
function commentText(c: IToken): string {
  return c.image.trimEnd();
}
