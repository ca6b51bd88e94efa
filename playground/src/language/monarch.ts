/**
 * The Monarch grammar for Cantrip, as plain data so it can be unit tested and
 * handed to Monaco by the editor module. Host function names are passed in so
 * the one host API table also drives highlighting.
 */
import { ALL_KEYWORDS } from './keywords.js';

export interface MonarchGrammar {
  readonly defaultToken: string;
  readonly keywords: readonly string[];
  readonly hostFunctions: readonly string[];
  readonly operators: readonly string[];
  readonly symbols: RegExp;
  readonly tokenizer: Record<string, readonly unknown[]>;
}

export const LANGUAGE_ID = 'cantrip';

export function cantripMonarch(hostFunctionNames: readonly string[]): MonarchGrammar {
  return {
    defaultToken: '',
    keywords: ALL_KEYWORDS,
    hostFunctions: [...hostFunctionNames],
    operators: ['=', '>', '<', '!', '==', '<=', '>=', '!=', '+', '-', '*', '/', '%', '+=', '-=', '*=', '/='],
    symbols: /[=><!+\-*/%]+/,
    tokenizer: {
      root: [
        [/spell(?=\s+[A-Za-z_])/, 'keyword.spell'],
        [
          /[A-Za-z_]\w*/,
          { cases: { '@keywords': 'keyword', '@hostFunctions': 'predefined', '@default': 'identifier' } },
        ],
        { include: '@whitespace' },
        [/[{}()[\]]/, '@brackets'],
        [/@symbols/, { cases: { '@operators': 'operator', '@default': '' } }],
        [/\d+(\.\d+)?/, 'number'],
        [/[;,.]/, 'delimiter'],
        // Lox strings have no escapes and may span lines.
        [/"/, { token: 'string.quote', next: '@string' }],
        [/`/, { token: 'string.quote', next: '@template' }],
      ],
      string: [
        [/[^"]+/, 'string'],
        [/"/, { token: 'string.quote', next: '@pop' }],
      ],
      // Template strings: text, and `${ … }` substitutions holding ordinary code (maps and templates nest).
      template: [
        [/[^`$]+/, 'string'],
        [/\$\{/, { token: 'delimiter.bracket', next: '@substitution' }],
        [/\$/, 'string'],
        [/`/, { token: 'string.quote', next: '@pop' }],
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
        [/\/\/.*$/, 'comment'],
      ],
    },
  };
}
