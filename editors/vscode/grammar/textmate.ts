/**
 * The TextMate grammar for Cantrip, generated from the compiler's lexicon
 * (keywords, operators, punctuation, patterns) and the host API table, the
 * same lists the lexer and the playground's Monarch grammar read. The
 * committed syntaxes/cantrip.tmLanguage.json is this function's output
 * (grammar.test.ts keeps it fresh).
 *
 * Scope names follow the conventions themes know (those of VS Code's
 * JavaScript grammar): keyword.control, storage.type, constant.language,
 * support.function, string.template with meta.embedded substitutions.
 */
import {
  escapeRegExp,
  IDENTIFIER_PATTERN,
  KEYWORD_ROLES,
  LINE_COMMENT,
  NUMBER_PATTERN,
  OPERATORS,
  operatorTexts,
  PUNCTUATION,
  STRING_QUOTE,
  SUBSTITUTION_CLOSE,
  SUBSTITUTION_OPEN,
  TEMPLATE_QUOTE,
  type KeywordRole,
  type OperatorRole,
  type PunctuationName,
} from '../../../compiler/lexicon.js';

export const SCOPE_NAME = 'source.cantrip';

/** A TextMate rule: a single match, or a begin/end region with patterns of its own. */
export interface TextMateRule {
  name?: string;
  contentName?: string;
  match?: string;
  begin?: string;
  end?: string;
  captures?: Captures;
  beginCaptures?: Captures;
  endCaptures?: Captures;
  patterns?: TextMateRule[];
  include?: string;
}

type Captures = Record<string, { name: string }>;

export interface TextMateGrammar {
  $schema: string;
  name: string;
  scopeName: string;
  fileTypes: string[];
  patterns: TextMateRule[];
  repository: Record<string, TextMateRule>;
}

const KEYWORD_SCOPES: Record<KeywordRole, string> = {
  control: 'keyword.control',
  declaration: 'storage.type',
  constant: 'constant.language',
  operator: 'keyword.operator.word',
  self: 'variable.language',
  statement: 'keyword.other',
};

const OPERATOR_SCOPES: Record<OperatorRole, string> = {
  assignment: 'keyword.operator.assignment',
  comparison: 'keyword.operator.comparison',
  arithmetic: 'keyword.operator.arithmetic',
  logical: 'keyword.operator.logical',
};

const PUNCTUATION_SCOPES: Record<PunctuationName, string> = {
  LeftParen: 'meta.brace.round',
  RightParen: 'meta.brace.round',
  LeftBrace: 'meta.brace.curly',
  RightBrace: 'meta.brace.curly',
  LeftBracket: 'meta.brace.square',
  RightBracket: 'meta.brace.square',
  Comma: 'punctuation.separator.comma',
  Colon: 'punctuation.separator.key-value',
  Dot: 'punctuation.accessor',
  Semicolon: 'punctuation.terminator.statement',
};

const IDENT = IDENTIFIER_PATTERN;
const scoped = (scope: string) => `${scope}.cantrip`;
const word = (words: readonly string[]) => `\\b(?:${words.map(escapeRegExp).join('|')})\\b`;

export function textMateGrammar(hostFunctionNames: readonly string[]): TextMateGrammar {
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'Cantrip',
    scopeName: SCOPE_NAME,
    fileTypes: ['spell'],
    patterns: [{ include: '#code' }],
    repository: {
      code: {
        patterns: [
          'comment',
          'string',
          'template',
          'spell-declaration',
          'function-declaration',
          'class-declaration',
          'keywords',
          'method-call',
          'property',
          'host-function',
          'function-call',
          'number',
          'operators',
          'punctuation',
          'identifier',
        ].map((name) => ({ include: `#${name}` })),
      },
      comment: {
        name: scoped('comment.line.double-slash'),
        match: `(${escapeRegExp(LINE_COMMENT)}).*$`,
        captures: { 1: { name: scoped('punctuation.definition.comment') } },
      },
      string: quoted(STRING_QUOTE, 'string.quoted.double', []),
      template: quoted(TEMPLATE_QUOTE, 'string.template', [{ include: '#substitution' }]),
      substitution: {
        name: scoped('meta.template.expression'),
        contentName: scoped('meta.embedded.line'),
        begin: escapeRegExp(SUBSTITUTION_OPEN),
        end: escapeRegExp(SUBSTITUTION_CLOSE),
        beginCaptures: { 0: { name: scoped('punctuation.definition.template-expression.begin') } },
        endCaptures: { 0: { name: scoped('punctuation.definition.template-expression.end') } },
        patterns: [{ include: '#nested-braces' }, { include: '#code' }],
      },
      // Inside a substitution a `}` closes it only when every `{` opened there is closed (a map literal).
      'nested-braces': {
        begin: escapeRegExp(PUNCTUATION.LeftBrace),
        end: escapeRegExp(PUNCTUATION.RightBrace),
        beginCaptures: { 0: { name: scoped(PUNCTUATION_SCOPES.LeftBrace) } },
        endCaptures: { 0: { name: scoped(PUNCTUATION_SCOPES.RightBrace) } },
        patterns: [{ include: '#nested-braces' }, { include: '#code' }],
      },
      'spell-declaration': {
        match: `\\b(spell)\\s+(${IDENT})(?=\\s*\\()`,
        captures: { 1: { name: keywordScope('spell') }, 2: { name: scoped('entity.name.function.spell') } },
      },
      'function-declaration': {
        match: `\\b(fun)\\s+(${IDENT})`,
        captures: { 1: { name: keywordScope('fun') }, 2: { name: scoped('entity.name.function') } },
      },
      'class-declaration': {
        match: `\\b(class)\\s+(${IDENT})(?:\\s*(${escapeRegExp(OPERATORS.Less.text)})\\s*(${IDENT}))?`,
        captures: {
          1: { name: keywordScope('class') },
          2: { name: scoped('entity.name.type.class') },
          3: { name: scoped('keyword.operator.inheritance') },
          4: { name: scoped('entity.other.inherited-class') },
        },
      },
      keywords: { patterns: keywordRules() },
      'method-call': {
        match: `(${escapeRegExp(PUNCTUATION.Dot)})\\s*(${IDENT})(?=\\s*\\()`,
        captures: { 1: { name: scoped('punctuation.accessor') }, 2: { name: scoped('entity.name.function.method') } },
      },
      property: {
        match: `(${escapeRegExp(PUNCTUATION.Dot)})\\s*(${IDENT})`,
        captures: { 1: { name: scoped('punctuation.accessor') }, 2: { name: scoped('variable.other.property') } },
      },
      'host-function': { name: scoped('support.function'), match: word([...hostFunctionNames].sort()) },
      'function-call': { name: scoped('entity.name.function.call'), match: `\\b${IDENT}(?=\\s*\\()` },
      number: { name: scoped('constant.numeric.decimal'), match: `\\b${NUMBER_PATTERN}` },
      // One rule per operator, longest first: at one position the first rule listed wins, so `==` beats `=`.
      operators: { patterns: operatorRules() },
      punctuation: { patterns: punctuationRules() },
      identifier: { name: scoped('variable.other'), match: IDENT },
    },
  };
}

function quoted(quote: string, scope: string, patterns: TextMateRule[]): TextMateRule {
  return {
    name: scoped(scope),
    begin: escapeRegExp(quote),
    end: escapeRegExp(quote),
    beginCaptures: { 0: { name: scoped('punctuation.definition.string.begin') } },
    endCaptures: { 0: { name: scoped('punctuation.definition.string.end') } },
    patterns,
  };
}

function keywordScope(keyword: keyof typeof KEYWORD_ROLES): string {
  return scoped(`${KEYWORD_SCOPES[KEYWORD_ROLES[keyword]]}.${keyword}`);
}

function keywordRules(): TextMateRule[] {
  const byRole = new Map<KeywordRole, string[]>();
  for (const [keyword, role] of Object.entries(KEYWORD_ROLES)) byRole.set(role, [...(byRole.get(role) ?? []), keyword]);
  return [...byRole].map(([role, words]) => ({ name: scoped(KEYWORD_SCOPES[role]), match: word(words.sort()) }));
}

function operatorRules(): TextMateRule[] {
  const roleOf = new Map(Object.values(OPERATORS).map((o) => [o.text as string, o.role as OperatorRole]));
  return operatorTexts().map((text) => ({ name: scoped(OPERATOR_SCOPES[roleOf.get(text)!]), match: escapeRegExp(text) }));
}

function punctuationRules(): TextMateRule[] {
  return (Object.entries(PUNCTUATION_SCOPES) as [PunctuationName, string][]).map(([name, scope]) => ({
    name: scoped(scope),
    match: escapeRegExp(PUNCTUATION[name]),
  }));
}
