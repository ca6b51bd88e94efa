/**
 * Where the extension finds `cantrip lsp`, with no VS Code in sight (so the
 * tests can run it): the `cantrip.server.path` setting when it is set, else
 * the `cantrip-lang` package in the workspace's node_modules (walking up
 * from each workspace folder, as Node resolves packages), else a `cantrip`
 * on PATH.
 *
 * An explicit setting wins over the workspace, as `deno.path`,
 * `rust-analyzer.server.path` and `prettier.prettierPath` do: a setting that
 * is silently ignored whenever the workspace has the package would be a trap.
 * A setting that names nothing runnable is reported, never skipped.
 */
import * as path from 'node:path';

/** The npm package that carries the server, and its launcher inside it. */
export const SERVER_PACKAGE = 'cantrip-lang';
export const LAUNCHER = 'bin/cantrip.js';
export const SERVER_ARGS: readonly string[] = ['lsp'];

export interface ServerLaunch {
  readonly source: 'setting' | 'workspace' | 'path';
  /** `script`: a JavaScript file run with Node; `executable`: a program run as it is. */
  readonly kind: 'script' | 'executable';
  readonly path: string;
}

export type ServerSearch =
  | { readonly launch: ServerLaunch }
  | { readonly launch: null; readonly problem: string; readonly searched: readonly string[] };

export interface SearchInputs {
  /** `cantrip.server.path`: empty or undefined when unset. */
  readonly setting: string | undefined;
  readonly workspaceFolders: readonly string[];
  /** VS Code's workspace trust: an untrusted workspace's node_modules is never run. */
  readonly workspaceTrusted: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly homeDir: string;
  readonly isFile: (file: string) => boolean;
  readonly isDirectory: (dir: string) => boolean;
  /** Follows symbolic links (npm's global `cantrip` is one, to the package's launcher). */
  readonly realPath: (file: string) => string;
}

export function locateServer(inputs: SearchInputs): ServerSearch {
  const setting = inputs.setting?.trim();
  if (setting) return fromSetting(setting, inputs);
  const searched: string[] = [];
  if (inputs.workspaceTrusted) {
    for (const candidate of workspaceCandidates(inputs)) {
      searched.push(candidate);
      if (inputs.isFile(candidate)) return { launch: { source: 'workspace', kind: 'script', path: candidate } };
    }
  }
  for (const candidate of pathCandidates(inputs)) {
    searched.push(candidate);
    if (inputs.isFile(candidate)) return { launch: fromPath(candidate, inputs) };
  }
  const untrusted = inputs.workspaceTrusted ? '' : " (the workspace's node_modules was not searched: the workspace is not trusted)";
  return {
    launch: null,
    problem: `No Cantrip language server was found in the workspace's node_modules or on PATH${untrusted}.`,
    searched,
  };
}

function fromSetting(setting: string, inputs: SearchInputs): ServerSearch {
  const p = pathFor(inputs.platform);
  const expanded = setting === '~' || setting.startsWith('~/') ? p.join(inputs.homeDir, setting.slice(1)) : setting;
  const base = inputs.workspaceFolders[0];
  const resolved = p.isAbsolute(expanded) || base === undefined ? p.resolve(expanded) : p.resolve(base, expanded);
  // A package folder or a clone of the repository: run its launcher.
  const launcher = p.join(resolved, LAUNCHER);
  if (inputs.isDirectory(resolved) && inputs.isFile(launcher)) {
    return { launch: { source: 'setting', kind: 'script', path: launcher } };
  }
  if (inputs.isFile(resolved)) {
    return { launch: { source: 'setting', kind: /\.[cm]?js$/i.test(resolved) ? 'script' : 'executable', path: resolved } };
  }
  return {
    launch: null,
    problem: `The setting cantrip.server.path is "${setting}", which is neither a file nor a folder holding ${LAUNCHER}.`,
    searched: [resolved],
  };
}

/**
 * A `cantrip` on PATH is run through the launcher it stands for when that can
 * be found, with the editor's own Node: npm's shims start with
 * `#!/usr/bin/env node`, and an editor started from a desktop menu often has
 * no `node` on its PATH.
 */
function fromPath(found: string, inputs: SearchInputs): ServerLaunch {
  const p = pathFor(inputs.platform);
  const real = inputs.realPath(found);
  if (/\.[cm]?js$/i.test(real)) return { source: 'path', kind: 'script', path: real };
  // npm on Windows writes cantrip.cmd beside node_modules/cantrip-lang.
  const beside = p.join(p.dirname(found), 'node_modules', SERVER_PACKAGE, LAUNCHER);
  if (inputs.isFile(beside)) return { source: 'path', kind: 'script', path: beside };
  return { source: 'path', kind: 'executable', path: found };
}

/** node_modules/cantrip-lang/bin/cantrip.js in each workspace folder and every folder above it. */
function workspaceCandidates(inputs: SearchInputs): string[] {
  const p = pathFor(inputs.platform);
  const out: string[] = [];
  for (const folder of inputs.workspaceFolders) {
    for (let dir = p.resolve(folder); ; dir = p.dirname(dir)) {
      const candidate = p.join(dir, 'node_modules', SERVER_PACKAGE, LAUNCHER);
      if (!out.includes(candidate)) out.push(candidate);
      if (p.dirname(dir) === dir) break;
    }
  }
  return out;
}

function pathCandidates(inputs: SearchInputs): string[] {
  const windows = inputs.platform === 'win32';
  const p = pathFor(inputs.platform);
  // Windows spells the variable Path and lists runnable extensions in PATHEXT.
  const pathVar = Object.entries(inputs.env).find(([k]) => (windows ? k.toUpperCase() === 'PATH' : k === 'PATH'))?.[1] ?? '';
  const names = windows
    ? (inputs.env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).map((ext) => `cantrip${ext.toLowerCase()}`)
    : ['cantrip'];
  return pathVar
    .split(p.delimiter)
    .filter(Boolean)
    .flatMap((dir) => names.map((name) => p.join(dir, name)));
}

function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** How to start a located server; the language client adds `--stdio`. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the environment the server inherits. */
  readonly env: Readonly<Record<string, string>>;
  readonly shell: boolean;
}

/**
 * A script runs on `nodePath` — in VS Code the editor's own executable, which
 * ELECTRON_RUN_AS_NODE turns into plain Node — so no `node` on PATH is needed.
 */
export function serverCommand(launch: ServerLaunch, nodePath: string, platform: NodeJS.Platform): ServerCommand {
  if (launch.kind === 'script') {
    return { command: nodePath, args: [launch.path, ...SERVER_ARGS], env: { ELECTRON_RUN_AS_NODE: '1' }, shell: false };
  }
  // Windows runs .cmd and .bat files only through a shell, which needs the path quoted.
  const shell = platform === 'win32' && /\.(cmd|bat)$/i.test(launch.path);
  return { command: shell ? `"${launch.path}"` : launch.path, args: [...SERVER_ARGS], env: {}, shell };
}
