/**
 * The Language Server Protocol server (`cantrip lsp`): the language
 * service's answers over JSON-RPC. It never dies of its input: every
 * handler answers or returns an error response, and the process survives
 * anything a handler throws.
 */
import {
  CodeActionKind,
  LSPErrorCodes,
  ResponseError,
  SemanticTokensBuilder,
  TextDocumentSyncKind,
  TextDocuments,
  type CodeAction,
  type Connection,
  type InitializeResult,
  type ServerCapabilities,
  type WorkspaceSymbol,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
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
  semanticTokens,
  signatureHelpAt,
} from '../../compiler/service/index.js';
import type { CliIO } from '../io.js';
import { toCompletionItem, toDiagnostic, toDocumentSymbol, toRange, toSymbolKind } from './convert.js';
import { ProjectWatch } from './project-watch.js';
import { SpellWorkspace, type Analysis } from './workspace.js';

export const SERVER_CAPABILITIES: ServerCapabilities = {
  textDocumentSync: TextDocumentSyncKind.Incremental,
  completionProvider: { triggerCharacters: ['.', '"'] },
  hoverProvider: true,
  signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: [')'] },
  definitionProvider: true,
  referencesProvider: true,
  renameProvider: { prepareProvider: true },
  documentSymbolProvider: true,
  workspaceSymbolProvider: true,
  semanticTokensProvider: { legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS] }, full: true },
  foldingRangeProvider: true,
  documentFormattingProvider: true,
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
};

export function startLanguageServer(connection: Connection, io: CliIO): void {
  const documents = new TextDocuments(TextDocument);
  const workspace = new SpellWorkspace(io);
  const pending = new Set<string>();
  let projectWatch: ProjectWatch | null = null;

  /** The analysis of an open document, or null for a document the client never opened. */
  const analysisOf = (uri: string): { text: TextDocument; analysis: Analysis } | null => {
    const text = documents.get(uri);
    return text ? { text, analysis: workspace.analyse(uri, text.getText()) } : null;
  };

  const publish = (uri: string) => {
    const open = analysisOf(uri);
    if (!open) return;
    const diagnostics = open.analysis.diagnostics.map((d) => toDiagnostic(open.text, d));
    void connection.sendDiagnostics({ uri, version: open.text.version, diagnostics });
    // Analysing may have loaded a project: its breeds and API files are watched from now on.
    projectWatch?.watch(workspace.projectFiles());
  };

  /** Edits come in bursts; diagnose each document once, on its newest text. */
  const schedule = (uri: string) => {
    if (pending.has(uri)) return;
    pending.add(uri);
    setImmediate(() => {
      pending.delete(uri);
      guard('diagnostics', () => publish(uri), undefined);
    });
  };

  /** A handler that throws answers with an error response (and a log line) instead of taking the server down. */
  const guard = <T>(what: string, body: () => T, fallback: T): T => {
    try {
      return body();
    } catch (error) {
      connection.console.error(`cantrip lsp: ${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return fallback;
    }
  };

  connection.onInitialize((params): InitializeResult => {
    const roots = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    workspace.setRoots(roots);
    const options = params.initializationOptions as { analysisCacheMB?: unknown } | null | undefined;
    const cacheMB = options?.analysisCacheMB;
    if (typeof cacheMB === 'number' && Number.isFinite(cacheMB) && cacheMB >= 0) workspace.setAnalysisBudget(Math.round(cacheMB * (1 << 20)));
    else if (cacheMB !== undefined) connection.console.warn(`cantrip lsp: ignoring analysisCacheMB ${JSON.stringify(cacheMB)} (a number of megabytes, 0 or more)`);
    projectWatch = new ProjectWatch(connection, params.capabilities);
    return { capabilities: SERVER_CAPABILITIES, serverInfo: { name: 'cantrip' } };
  });

  documents.onDidOpen((e) => schedule(e.document.uri));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidClose((e) => {
    workspace.forget(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });
  connection.onInitialized(() => projectWatch?.watch(workspace.projectFiles()));
  // A breeds, API or cantrip.json file changed on disk: diagnose every open document again (the projects reload themselves).
  connection.onDidChangeWatchedFiles(() => {
    for (const doc of documents.all()) schedule(doc.uri);
  });

  connection.onCompletion((p) =>
    guard('completion', () => {
      const open = analysisOf(p.textDocument.uri);
      return open ? completionsAt(open.analysis.doc, open.text.offsetAt(p.position)).map(toCompletionItem) : [];
    }, []),
  );

  connection.onHover((p) =>
    guard('hover', () => {
      const open = analysisOf(p.textDocument.uri);
      const hover = open ? hoverAt(open.analysis.doc, open.text.offsetAt(p.position)) : null;
      return hover && open ? { contents: { kind: 'markdown' as const, value: hover.contents.join('\n\n') }, range: toRange(open.text, hover.start, hover.end) } : null;
    }, null),
  );

  connection.onSignatureHelp((p) =>
    guard('signature help', () => {
      const open = analysisOf(p.textDocument.uri);
      const hint = open ? signatureHelpAt(open.analysis.doc, open.text.offsetAt(p.position)) : null;
      if (!hint) return null;
      return {
        signatures: [{ label: hint.label, documentation: hint.documentation, parameters: hint.parameters.map((q) => ({ label: q.label, documentation: q.documentation })) }],
        activeSignature: 0,
        activeParameter: Math.min(hint.activeParameter, Math.max(0, hint.parameters.length - 1)),
      };
    }, null),
  );

  connection.onDefinition((p) =>
    guard('definition', () => {
      const open = analysisOf(p.textDocument.uri);
      return open ? definitionAt(open.analysis.doc, open.text.offsetAt(p.position)).map((r) => ({ uri: p.textDocument.uri, range: toRange(open.text, r.start, r.end) })) : [];
    }, []),
  );

  connection.onReferences((p) =>
    guard('references', () => {
      const open = analysisOf(p.textDocument.uri);
      if (!open) return [];
      return referencesAt(open.analysis.doc, open.text.offsetAt(p.position), p.context.includeDeclaration).map((r) => ({ uri: p.textDocument.uri, range: toRange(open.text, r.start, r.end) }));
    }, []),
  );

  connection.onPrepareRename((p) => {
    const open = analysisOf(p.textDocument.uri);
    if (!open) return null;
    const target = prepareRenameAt(open.analysis.doc, open.text.offsetAt(p.position));
    if (!target.ok) return new ResponseError(LSPErrorCodes.RequestFailed, target.message);
    return { range: toRange(open.text, target.start, target.end), placeholder: target.placeholder };
  });

  connection.onRenameRequest((p) => {
    const open = analysisOf(p.textDocument.uri);
    if (!open) return null;
    const result = renameAt(open.analysis.doc, open.text.offsetAt(p.position), p.newName);
    if (!result.ok) return new ResponseError(LSPErrorCodes.RequestFailed, result.message);
    return { changes: { [p.textDocument.uri]: result.edits.map((e) => ({ range: toRange(open.text, e.start, e.end), newText: e.newText })) } };
  });

  connection.onDocumentSymbol((p) =>
    guard('document symbols', () => {
      const open = analysisOf(p.textDocument.uri);
      return open ? documentSymbols(open.analysis.doc).map((s) => toDocumentSymbol(open.text, s)) : [];
    }, []),
  );

  connection.onWorkspaceSymbol((p) =>
    guard('workspace symbols', (): WorkspaceSymbol[] => {
      const open = new Map(documents.all().map((d) => [d.uri, d.getText()]));
      return workspace.workspaceSymbols(p.query, open).map(({ uri, symbol, container }) => {
        const text = documents.get(uri);
        const location = text ? { uri, range: toRange(text, symbol.nameStart, symbol.nameEnd) } : { uri };
        return { name: symbol.name, kind: toSymbolKind(symbol.kind), location, ...(container ? { containerName: container } : {}) };
      });
    }, []),
  );

  connection.languages.semanticTokens.on((p) =>
    guard('semantic tokens', () => {
      const open = analysisOf(p.textDocument.uri);
      const builder = new SemanticTokensBuilder();
      if (!open) return builder.build();
      for (const t of semanticTokens(open.analysis.doc)) {
        const start = open.text.positionAt(t.start);
        const modifiers = t.modifiers.reduce((bits, m) => bits | (1 << SEMANTIC_TOKEN_MODIFIERS.indexOf(m)), 0);
        builder.push(start.line, start.character, t.end - t.start, SEMANTIC_TOKEN_TYPES.indexOf(t.type), modifiers);
      }
      return builder.build();
    }, { data: [] }),
  );

  connection.onFoldingRanges((p) =>
    guard('folding ranges', () => {
      const open = analysisOf(p.textDocument.uri);
      return open ? foldingRanges(open.analysis.doc).map((r) => ({ startLine: r.startLine - 1, endLine: r.endLine - 1, kind: r.kind })) : [];
    }, []),
  );

  connection.onCodeAction((p) =>
    guard('code actions', (): CodeAction[] => {
      const open = analysisOf(p.textDocument.uri);
      if (!open) return [];
      const start = open.text.offsetAt(p.range.start);
      const end = open.text.offsetAt(p.range.end);
      return quickFixes(open.analysis.doc, start, end).map((fix) => {
        const diagnostic = toDiagnostic(open.text, fix.diagnostic);
        return {
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: true,
          edit: { changes: { [p.textDocument.uri]: [{ range: toRange(open.text, fix.edit.start, fix.edit.end), newText: fix.edit.newText }] } },
        };
      });
    }, []),
  );

  connection.onDocumentFormatting((p) => {
    const open = analysisOf(p.textDocument.uri);
    if (!open) return [];
    const result = formatEdits(open.analysis.doc, p.options.tabSize);
    if (!result.ok) return new ResponseError(LSPErrorCodes.RequestFailed, result.message);
    return result.edits.map((e) => ({ range: toRange(open.text, e.start, e.end), newText: e.newText }));
  });

  documents.listen(connection);
  connection.listen();
}
