/**
 * VS Code's language configuration for Cantrip (comments, brackets,
 * auto-closing, indentation, folding), generated from the compiler's lexicon
 * like the TextMate grammar beside it. The committed
 * language-configuration.json is this function's output.
 */
import {
  BRACKET_PAIRS,
  escapeRegExp,
  IDENTIFIER_PATTERN,
  LINE_COMMENT,
  NUMBER_PATTERN,
  STRING_QUOTE,
  TEMPLATE_QUOTE,
} from '../../../compiler/lexicon.js';

export interface LanguageConfiguration {
  comments: { lineComment: string };
  brackets: [string, string][];
  autoClosingPairs: { open: string; close: string; notIn?: string[] }[];
  autoCloseBefore: string;
  surroundingPairs: [string, string][];
  wordPattern: string;
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
  folding: { markers: { start: string; end: string } };
}

const QUOTES = [STRING_QUOTE, TEMPLATE_QUOTE];

export function languageConfiguration(): LanguageConfiguration {
  const comment = escapeRegExp(LINE_COMMENT);
  // A line whose last bracket is an opener (outside strings and comments) indents the next one.
  const stops = [...QUOTES, LINE_COMMENT[0]!].map(escapeRegExp).join('');
  const openers = BRACKET_PAIRS.map(([open, close]) => `${escapeRegExp(open)}[^${escapeRegExp(close)}${stops}]*`);
  const closers = BRACKET_PAIRS.map(([, close]) => escapeRegExp(close)).join('');
  return {
    comments: { lineComment: LINE_COMMENT },
    brackets: BRACKET_PAIRS.map(([open, close]) => [open, close]),
    autoClosingPairs: [
      ...BRACKET_PAIRS.map(([open, close]) => ({ open, close })),
      // Typing `${` in a template closes with `}` through the `{` pair.
      ...QUOTES.map((quote) => ({ open: quote, close: quote, notIn: ['string', 'comment'] })),
    ],
    autoCloseBefore: ';:.,=}])> \n\t',
    surroundingPairs: [...BRACKET_PAIRS.map(([open, close]): [string, string] => [open, close]), ...QUOTES.map((q): [string, string] => [q, q])],
    wordPattern: `(-?${NUMBER_PATTERN})|(${IDENTIFIER_PATTERN})`,
    indentationRules: {
      increaseIndentPattern: `^((?!${comment}).)*(${openers.join('|')})(\\s*${comment}.*)?$`,
      decreaseIndentPattern: `^\\s*[${closers}]`,
    },
    folding: { markers: { start: `^\\s*${comment}\\s*#?region\\b`, end: `^\\s*${comment}\\s*#?endregion\\b` } },
  };
}
