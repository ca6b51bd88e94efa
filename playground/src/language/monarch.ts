/**
 * The Monarch grammar for Cantrip, as plain data so it can be unit tested and
 * handed to Monaco by the editor module. Keywords, operators and patterns come
 * from the compiler's lexicon (the VS Code extension's TextMate grammar is
 * generated from the same lists); host function names are passed in so the
 * one host API table also drives highlighting.
 */
import {
  escapeRegExp,
  IDENTIFIER_PATTERN,
  KEYWORDS,
  LINE_COMMENT,
  NUMBER_PATTERN,
  operatorTexts,
  STRING_QUOTE,
  SUBSTITUTION_OPEN,
  TEMPLATE_QUOTE,
} from '../../../compiler/lexicon.js';

export interface MonarchGrammar {
  readonly defaultToken: string;
  readonly keywords: readonly string[];
  readonly hostFunctions: readonly string[];
  readonly operators: readonly string[];
  readonly symbols: RegExp;
  readonly tokenizer: Record<string, readonly unknown[]>;
}

export const LANGUAGE_ID = 'cantrip';

const OPERATORS = operatorTexts();
/** A run of operator characters, looked up in `operators` as a whole. */
const SYMBOLS = new RegExp('[' + escapeRegExp([...new Set(OPERATORS.join(''))].join('')) + ']+');
const STRING = escapeRegExp(STRING_QUOTE);
const TEMPLATE = escapeRegExp(TEMPLATE_QUOTE);

export function cantripMonarch(hostFunctionNames: readonly string[]): MonarchGrammar {
  return {
    defaultToken: '',
    keywords: KEYWORDS,
    hostFunctions: [...hostFunctionNames],
    operators: OPERATORS,
    symbols: SYMBOLS,
    tokenizer: {
      root: [
        [/spell(?=\s+[A-Za-z_])/, 'keyword.spell'],
        [
          new RegExp(IDENTIFIER_PATTERN),
          { cases: { '@keywords': 'keyword', '@hostFunctions': 'predefined', '@default': 'identifier' } },
        ],
        { include: '@whitespace' },
        [/[{}()[\]]/, '@brackets'],
        [/@symbols/, { cases: { '@operators': 'operator', '@default': '' } }],
        [new RegExp(NUMBER_PATTERN), 'number'],
        [/[;,.:]/, 'delimiter'],
        // Lox strings have no escapes and may span lines.
        [new RegExp(STRING), { token: 'string.quote', next: '@string' }],
        [new RegExp(TEMPLATE), { token: 'string.quote', next: '@template' }],
      ],
      string: [
        [new RegExp(`[^${STRING}]+`), 'string'],
        [new RegExp(STRING), { token: 'string.quote', next: '@pop' }],
      ],
      // Template strings: text, and `${ … }` substitutions holding ordinary code (maps and templates nest).
      template: [
        [new RegExp(`[^${TEMPLATE}$]+`), 'string'],
        [new RegExp(escapeRegExp(SUBSTITUTION_OPEN)), { token: 'delimiter.bracket', next: '@substitution' }],
        [/\$/, 'string'],
        [new RegExp(TEMPLATE), { token: 'string.quote', next: '@pop' }],
      ],
      substitution: [
        [/\{/, { token: 'delimiter.bracket', next: '@braces' }],
        [/\}/, { token: 'delimiter.bracket', next: '@pop' }],
        { include: 'root' },
      ],
      braces: [
        [/\{/, { token: 'delimiter.bracket', next: '@braces' }],
        [/\}/, { token: 'delimiter.bracket', next: '@pop' }],
        { include: 'root' },
      ],
      whitespace: [
        [/[ \t\r\n]+/, 'white'],
        [new RegExp(escapeRegExp(LINE_COMMENT) + '.*$'), 'comment'],
      ],
    },
  };
}
