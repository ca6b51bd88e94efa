/**
 * The language service: diagnostics, completion, hover, signature help,
 * navigation, rename, symbols, semantic tokens, folding and quick fixes for
 * spell files, answered from the compiler's own parse, resolve and check
 * results. Positions are 0-based offsets; each editor converts them.
 */
export { LanguageService, declaredSpells, type LanguageServiceOptions } from './language-service.js';
export { AnalysisBudget, DEFAULT_ANALYSED_SOURCE_BUDGET } from './analysis-budget.js';
export { SpellDocument, MAX_ANALYSED_SOURCE } from './document.js';
export { serviceDiagnostic, type ServiceDiagnostic } from './diagnostics.js';
export { completionsAt, hostDocumentation, type CompletionEntry, type CompletionKind } from './completion.js';
export { hoverAt, type HoverInfo } from './hover.js';
export { signatureHelpAt, openCallAt, type SignatureHint, type SignatureParameter, type OpenCall } from './signature-help.js';
export { definitionAt, referencesAt, prepareRenameAt, renameAt, type RenameTarget, type RenameResult, type TextEdit } from './navigation.js';
export { documentSymbols, flattenSymbols, matchesQuery, type OutlineSymbol, type OutlineKind } from './outline.js';
export { semanticTokens, SEMANTIC_TOKEN_TYPES, SEMANTIC_TOKEN_MODIFIERS, type SemanticToken, type SemanticTokenType, type SemanticTokenModifier } from './semantic-tokens.js';
export { foldingRanges, type FoldingRange } from './folding.js';
export { quickFixes, type QuickFix } from './code-actions.js';
export { formatEdits, MAX_FORMATTED_SOURCE, type FormatEdits } from './formatting.js';
export { LineIndex, wordAt, type TextRange } from './text.js';
export { KEYWORD_DOCS, BUILTIN_METHODS, type BuiltinMethodDoc } from './words.js';
export { entityPropertyNames, hostSignature, type ServiceWorld, type BreedSummary, type PropertyDoc } from './world.js';
