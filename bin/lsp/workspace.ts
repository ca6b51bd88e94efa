/**
 * The files the server knows: each open document belongs to the project of
 * the cantrip.json above it (bin/project-config.ts), and each project has
 * its language service, whose world is rebuilt when the project's breeds or
 * API files change. Spell files on disk under the workspace folders are read
 * for workspace symbol search.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { AnalysisBudget, LanguageService, MAX_ANALYSED_SOURCE, documentSymbols, flattenSymbols, matchesQuery, type OutlineSymbol, type SpellDocument } from '../../compiler/service/index.js';
import { serviceDiagnostic, type ServiceDiagnostic } from '../../compiler/service/index.js';
import type { CliIO } from '../io.js';
import { analysesDropped } from './memory.js';
import { ProjectCache, projectDiagnostics, projectWorld, type Project } from '../project-config.js';

/** Workspace symbol search reads at most this many files from disk. */
const MAX_WORKSPACE_FILES = 2000;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist']);

export interface Analysis {
  readonly doc: SpellDocument;
  readonly project: Project;
  /** The compiler's diagnostics and the project's problems. */
  readonly diagnostics: readonly ServiceDiagnostic[];
}

type FlatSymbol = { symbol: OutlineSymbol; container: string };
export type WorkspaceSymbolMatch = FlatSymbol & { uri: string };

export class SpellWorkspace {
  private readonly projects: ProjectCache;
  private readonly services = new Map<Project, LanguageService>();
  /** One bound on the analyses of every project's service together. */
  private readonly budget = new AnalysisBudget(undefined, analysesDropped);
  private readonly outlines = new Map<string, { digest: string; symbols: readonly FlatSymbol[] }>();
  private roots: string[] = [];

  constructor(io: CliIO) {
    this.projects = new ProjectCache(io);
  }

  /** How many characters of source the analyses kept may total (the `analysisCacheMB` initialization option). */
  setAnalysisBudget(characters: number): void {
    this.budget.maxSource = characters;
  }

  setRoots(uris: readonly string[]): void {
    this.roots = uris.map(filePath).filter((p): p is string => p !== null);
  }

  /** The analysis of a document's text (cached while neither the text nor its project changes). */
  analyse(uri: string, text: string): Analysis {
    const project = this.projectOf(uri);
    const service = this.serviceFor(project);
    const doc = service.document(uri, text);
    const problems = projectDiagnostics(project).map((d) => serviceDiagnostic(d, doc.lines));
    return { doc, project, diagnostics: [...problems, ...doc.diagnostics] };
  }

  /** The project files to watch: every loaded project's cantrip.json and the breeds and API files it names. */
  projectFiles(): string[] {
    const files = new Set<string>();
    for (const project of this.services.keys()) for (const input of project.inputs) files.add(input);
    return [...files].sort();
  }

  forget(uri: string): void {
    for (const service of this.services.values()) service.forget(uri);
  }

  /** Symbols matching `query` in the open documents and the spell files under the workspace folders. */
  workspaceSymbols(query: string, open: ReadonlyMap<string, string>): WorkspaceSymbolMatch[] {
    const texts = new Map(open);
    for (const file of this.spellFilesOnDisk()) {
      const uri = pathToFileURL(file).href;
      if (texts.has(uri)) continue;
      const text = readText(file);
      if (text !== null) texts.set(uri, text);
    }
    const found: WorkspaceSymbolMatch[] = [];
    for (const [uri, text] of texts) {
      for (const entry of this.outlineOf(uri, text)) if (matchesQuery(entry.symbol.name, query)) found.push({ uri, ...entry });
    }
    // Outlines of files no longer there are not kept.
    for (const uri of this.outlines.keys()) if (!texts.has(uri)) this.outlines.delete(uri);
    return found;
  }

  /** A file's symbols: analysed once per text (the analysis itself may be dropped; its outline is small). */
  private outlineOf(uri: string, text: string): readonly FlatSymbol[] {
    const digest = createHash('sha1').update(text).digest('hex');
    const known = this.outlines.get(uri);
    if (known?.digest === digest) return known.symbols;
    const symbols = flattenSymbols(documentSymbols(this.analyse(uri, text).doc));
    this.outlines.set(uri, { digest, symbols });
    return symbols;
  }

  private projectOf(uri: string): Project {
    const path = filePath(uri) ?? join(this.roots[0] ?? process.cwd(), 'untitled.spell');
    return this.projects.projectOf(path).project;
  }

  private serviceFor(project: Project): LanguageService {
    let service = this.services.get(project);
    if (service === undefined) {
      // A reloaded project replaces the old one: drop the old project's service with it.
      for (const [old, oldService] of this.services) {
        if (old.configFile !== project.configFile) continue;
        oldService.forgetAll();
        this.services.delete(old);
      }
      service = new LanguageService(projectWorld(project), { budget: this.budget });
      this.services.set(project, service);
    }
    return service;
  }

  private spellFilesOnDisk(): string[] {
    const found: string[] = [];
    const visit = (dir: string, depth: number) => {
      if (depth > 12 || found.length >= MAX_WORKSPACE_FILES) return;
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const name of names) {
        if (found.length >= MAX_WORKSPACE_FILES) return;
        const path = join(dir, name);
        if (name.endsWith('.spell')) found.push(path);
        else if (!SKIPPED_FOLDERS.has(name) && !name.includes('.') && isDirectory(path)) visit(path, depth + 1);
      }
    };
    for (const root of this.roots) visit(root, 0);
    return found;
  }
}

function filePath(uri: string): string | null {
  if (!uri.startsWith('file:')) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readText(path: string): string | null {
  try {
    if (statSync(path).size > MAX_ANALYSED_SOURCE) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
