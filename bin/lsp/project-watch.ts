/**
 * Asking the editor to watch the project's files: every `cantrip.json`, and
 * the breeds and API files the loaded ones name, which may live anywhere.
 * The registration is dynamic (`client/registerCapability` for
 * `workspace/didChangeWatchedFiles`) because the breeds and API files are
 * known only once a project is loaded, and it is made again when that set
 * changes. A client that cannot register watchers gets none; the server
 * then sees a change on disk at the next request or edit, as before.
 */
import { basename, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, type ClientCapabilities, type Connection, type Disposable, type FileSystemWatcher } from 'vscode-languageserver/node';
import { CONFIG_FILE_NAME } from '../project-config.js';

export class ProjectWatch {
  private readonly enabled: boolean;
  private readonly relativePatterns: boolean;
  private registered: { key: string; registration: Promise<Disposable | null> } | null = null;

  constructor(
    private readonly connection: Connection,
    capabilities: ClientCapabilities,
  ) {
    const watch = capabilities.workspace?.didChangeWatchedFiles;
    this.enabled = watch?.dynamicRegistration === true;
    this.relativePatterns = watch?.relativePatternSupport === true;
  }

  /** Watch these files (absolute paths) and every cantrip.json; registers again only when the set changed. */
  watch(files: readonly string[]): void {
    if (!this.enabled) return;
    const key = files.join('\n');
    if (this.registered?.key === key) return;
    const previous = this.registered?.registration;
    const watchers: FileSystemWatcher[] = [{ globPattern: `**/${CONFIG_FILE_NAME}` }, ...files.filter((f) => basename(f) !== CONFIG_FILE_NAME).map((f) => this.watcher(f))];
    const registration = this.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers }).catch((error: unknown) => {
      this.connection.console.error(`cantrip lsp: the editor refused to watch the project files: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
    this.registered = { key, registration };
    // The new watchers are asked for before the old ones go, so no change falls between them.
    void previous?.then((old) => old?.dispose());
  }

  /** A file by its folder and name where the client takes such patterns; else any file of that name. */
  private watcher(file: string): FileSystemWatcher {
    if (this.relativePatterns) return { globPattern: { baseUri: pathToFileURL(dirname(file)).href, pattern: basename(file) } };
    return { globPattern: `**/${basename(file)}` };
  }
}
