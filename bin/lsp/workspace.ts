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
import { LanguageService, MAX_ANALYSED_SOURCE, type SpellDocument } from '../../compiler/service/index.js';
import { serviceDiagnostic, type ServiceDiagnostic } from '../../compiler/service/index.js';
import type { CliIO } from '../io.js';
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

export class SpellWorkspace {
  private readonly projects: ProjectCache;
  private readonly services = new Map<Project, LanguageService>();
  private roots: string[] = [];

  constructor(io: CliIO) {
    this.projects = new ProjectCache(io);
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
  workspaceSymbols(query: string, open: ReadonlyMap<string, string>) {
    for (const [uri, text] of open) this.analyse(uri, text);
    for (const file of this.spellFilesOnDisk()) {
      const uri = pathToFileURL(file).href;
      if (open.has(uri)) continue;
      const text = readText(file);
      if (text !== null) this.analyse(uri, text);
    }
    const seen = new Set<string>();
    return [...this.services.values()].flatMap((s) => s.workspaceSymbols(query)).filter((s) => {
      const key = `${s.uri}#${s.symbol.nameStart}`;
      return !seen.has(key) && seen.add(key) !== undefined;
    });
  }

  private projectOf(uri: string): Project {
    const path = filePath(uri) ?? join(this.roots[0] ?? process.cwd(), 'untitled.spell');
    return this.projects.projectOf(path).project;
  }

  private serviceFor(project: Project): LanguageService {
    let service = this.services.get(project);
    if (service === undefined) {
      // A reloaded project replaces the old one: drop the old project's service with it.
      for (const old of this.services.keys()) if (old.configFile === project.configFile) this.services.delete(old);
      service = new LanguageService(projectWorld(project));
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
