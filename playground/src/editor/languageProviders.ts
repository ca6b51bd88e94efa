/**
 * Monaco's language features for Cantrip, as thin adapters over the
 * library's language service (compiler/service): completion, hover,
 * parameter hints, go to definition (F12), find references (Shift+F12),
 * rename (F2), the outline (Ctrl+Shift+O), folding, Format Document
 * (Shift+Alt+F) and the "did you mean" quick fix (Ctrl+.). Each converts the service's offsets with the model's
 * own positions; nothing about the language is decided here.
 */
import {
  completionsAt,
  definitionAt,
  documentSymbols,
  foldingRanges,
  formatEdits,
  hoverAt,
  prepareRenameAt,
  quickFixes,
  referencesAt,
  renameAt,
  signatureHelpAt,
  type CompletionKind,
  type OutlineKind,
  type OutlineSymbol,
  type SpellDocument,
} from '../../../compiler/service/index.js';
import { LANGUAGE_ID } from '../language/monarch.js';
import { monaco } from './monaco.js';

/** The language service's analysis of a model's current text. */
export type DocumentFor = (model: monaco.editor.ITextModel) => SpellDocument;

type Model = monaco.editor.ITextModel;

function rangeOf(model: Model, start: number, end: number): monaco.Range {
  const s = model.getPositionAt(start);
  const e = model.getPositionAt(end);
  return new monaco.Range(s.lineNumber, s.column, e.lineNumber, e.column);
}

function completionKind(kind: CompletionKind): monaco.languages.CompletionItemKind {
  const K = monaco.languages.CompletionItemKind;
  const table: Record<CompletionKind, monaco.languages.CompletionItemKind> = {
    keyword: K.Keyword, host: K.Function, breed: K.EnumMember, property: K.Property, method: K.Method,
    spell: K.Event, variable: K.Variable, parameter: K.Variable, function: K.Function, class: K.Class,
  };
  return table[kind];
}

function symbolKind(kind: OutlineKind): monaco.languages.SymbolKind {
  const S = monaco.languages.SymbolKind;
  const table: Record<OutlineKind, monaco.languages.SymbolKind> = { spell: S.Event, function: S.Function, class: S.Class, method: S.Method, variable: S.Variable };
  return table[kind];
}

function documentSymbol(model: Model, s: OutlineSymbol): monaco.languages.DocumentSymbol {
  return {
    name: s.name,
    detail: s.detail,
    kind: symbolKind(s.kind),
    tags: [],
    range: rangeOf(model, s.start, s.end),
    selectionRange: rangeOf(model, s.nameStart, s.nameEnd),
    children: s.children.map((c) => documentSymbol(model, c)),
  };
}

export function registerLanguageProviders(documentFor: DocumentFor): void {
  const L = monaco.languages;
  L.registerCompletionItemProvider(LANGUAGE_ID, {
    triggerCharacters: ['.', '"'],
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const entries = completionsAt(documentFor(model), model.getOffsetAt(position));
      return {
        suggestions: entries.map((e) => ({
          label: e.label,
          kind: completionKind(e.kind),
          detail: e.detail,
          documentation: e.documentation ? { value: e.documentation } : undefined,
          insertText: e.insertText,
          insertTextRules: e.isSnippet ? L.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
          range,
          sortText: `${e.rank}${e.label}`,
        })),
      };
    },
  });

  L.registerHoverProvider(LANGUAGE_ID, {
    provideHover(model, position) {
      const hover = hoverAt(documentFor(model), model.getOffsetAt(position));
      return hover ? { range: rangeOf(model, hover.start, hover.end), contents: hover.contents.map((value) => ({ value })) } : null;
    },
  });

  L.registerSignatureHelpProvider(LANGUAGE_ID, {
    signatureHelpTriggerCharacters: ['(', ','],
    signatureHelpRetriggerCharacters: [')'],
    provideSignatureHelp(model, position) {
      const hint = signatureHelpAt(documentFor(model), model.getOffsetAt(position));
      if (!hint) return null;
      const docs = (text: string) => (text === '' ? undefined : { value: text });
      return {
        value: {
          signatures: [{ label: hint.label, documentation: docs(hint.documentation), parameters: hint.parameters.map((p) => ({ label: p.label, documentation: docs(p.documentation) })) }],
          activeSignature: 0,
          activeParameter: Math.min(hint.activeParameter, Math.max(0, hint.parameters.length - 1)),
        },
        dispose() {},
      };
    },
  });

  L.registerDefinitionProvider(LANGUAGE_ID, {
    provideDefinition(model, position) {
      return definitionAt(documentFor(model), model.getOffsetAt(position)).map((r) => ({ uri: model.uri, range: rangeOf(model, r.start, r.end) }));
    },
  });

  L.registerReferenceProvider(LANGUAGE_ID, {
    provideReferences(model, position, context) {
      return referencesAt(documentFor(model), model.getOffsetAt(position), context.includeDeclaration).map((r) => ({ uri: model.uri, range: rangeOf(model, r.start, r.end) }));
    },
  });

  L.registerRenameProvider(LANGUAGE_ID, {
    resolveRenameLocation(model, position) {
      const target = prepareRenameAt(documentFor(model), model.getOffsetAt(position));
      if (!target.ok) return { range: new monaco.Range(position.lineNumber, position.column, position.lineNumber, position.column), text: '', rejectReason: target.message };
      return { range: rangeOf(model, target.start, target.end), text: target.placeholder };
    },
    provideRenameEdits(model, position, newName) {
      const result = renameAt(documentFor(model), model.getOffsetAt(position), newName);
      if (!result.ok) return { edits: [], rejectReason: result.message };
      const versionId = model.getVersionId();
      return { edits: result.edits.map((e) => ({ resource: model.uri, versionId, textEdit: { range: rangeOf(model, e.start, e.end), text: e.newText } })) };
    },
  });

  L.registerDocumentSymbolProvider(LANGUAGE_ID, {
    provideDocumentSymbols(model) {
      return documentSymbols(documentFor(model)).map((s) => documentSymbol(model, s));
    },
  });

  L.registerFoldingRangeProvider(LANGUAGE_ID, {
    provideFoldingRanges(model) {
      return foldingRanges(documentFor(model)).map((r) => ({ start: r.startLine, end: r.endLine, kind: r.kind === 'comment' ? L.FoldingRangeKind.Comment : L.FoldingRangeKind.Region }));
    },
  });

  L.registerDocumentFormattingEditProvider(LANGUAGE_ID, {
    provideDocumentFormattingEdits(model, options) {
      const result = formatEdits(documentFor(model), options.tabSize);
      // Text with syntax errors stays as it is; its markers already say what is wrong.
      return result.ok ? result.edits.map((e) => ({ range: rangeOf(model, e.start, e.end), text: e.newText })) : [];
    },
  });

  L.registerCodeActionProvider(
    LANGUAGE_ID,
    {
      provideCodeActions(model, range, context) {
        const doc = documentFor(model);
        const actions = quickFixes(doc, model.getOffsetAt(range.getStartPosition()), model.getOffsetAt(range.getEndPosition())).map((fix) => {
          const fixRange = rangeOf(model, fix.edit.start, fix.edit.end);
          return {
            title: fix.title,
            kind: 'quickfix',
            isPreferred: true,
            diagnostics: context.markers.filter((m) => monaco.Range.areIntersectingOrTouching(m, fixRange)),
            edit: { edits: [{ resource: model.uri, versionId: model.getVersionId(), textEdit: { range: fixRange, text: fix.edit.newText } }] },
          };
        });
        return { actions, dispose() {} };
      },
    },
    { providedCodeActionKinds: ['quickfix'] },
  );
}
