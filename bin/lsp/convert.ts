/**
 * The language service's answers (offsets, plain kinds) in the protocol's
 * types (line/character positions, numeric kinds). The offsets are
 * converted with the client's own document model, so line breaks and
 * UTF-16 columns agree with the editor.
 */
import {
  CompletionItemKind,
  DiagnosticSeverity,
  InsertTextFormat,
  MarkupKind,
  SymbolKind,
  type CompletionItem,
  type Diagnostic,
  type DocumentSymbol,
  type Range,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionEntry, CompletionKind, OutlineKind, OutlineSymbol, ServiceDiagnostic } from '../../compiler/service/index.js';

export function toRange(doc: TextDocument, start: number, end: number): Range {
  return { start: doc.positionAt(start), end: doc.positionAt(end) };
}

export function toDiagnostic(doc: TextDocument, d: ServiceDiagnostic): Diagnostic {
  return {
    range: toRange(doc, d.start, d.end),
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    source: 'cantrip',
    message: d.message,
    ...(d.suggestion === undefined ? {} : { data: { suggestion: d.suggestion } }),
  };
}

const COMPLETION_KINDS: Record<CompletionKind, CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  host: CompletionItemKind.Function,
  breed: CompletionItemKind.EnumMember,
  property: CompletionItemKind.Property,
  method: CompletionItemKind.Method,
  spell: CompletionItemKind.Event,
  variable: CompletionItemKind.Variable,
  parameter: CompletionItemKind.Variable,
  function: CompletionItemKind.Function,
  class: CompletionItemKind.Class,
};

export function toCompletionItem(e: CompletionEntry): CompletionItem {
  return {
    label: e.label,
    kind: COMPLETION_KINDS[e.kind],
    detail: e.detail,
    ...(e.documentation === '' ? {} : { documentation: { kind: MarkupKind.Markdown, value: e.documentation } }),
    insertText: e.insertText,
    insertTextFormat: e.isSnippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    sortText: `${e.rank}${e.label}`,
  };
}

const SYMBOL_KINDS: Record<OutlineKind, SymbolKind> = {
  spell: SymbolKind.Event,
  function: SymbolKind.Function,
  class: SymbolKind.Class,
  method: SymbolKind.Method,
  variable: SymbolKind.Variable,
};

export function toSymbolKind(kind: OutlineKind): SymbolKind {
  return SYMBOL_KINDS[kind];
}

export function toDocumentSymbol(doc: TextDocument, s: OutlineSymbol): DocumentSymbol {
  return {
    name: s.name,
    detail: s.detail,
    kind: SYMBOL_KINDS[s.kind],
    range: toRange(doc, s.start, s.end),
    selectionRange: toRange(doc, s.nameStart, s.nameEnd),
    children: s.children.map((c) => toDocumentSymbol(doc, c)),
  };
}
