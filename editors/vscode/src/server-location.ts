/**
 * Which `cantrip` the extension runs its programs from — the language server
 * (`cantrip lsp`) and the debug adapter (`cantrip dap`), found by one search
 * so the two always come from the same place — with no VS Code in sight (so
 * the tests can run it). In order:
 *
 *   1. the `cantrip.server.path` setting, when it is set: an explicit choice
 *      wins, as `rust-analyzer.server.path`, `deno.path` and
 *      `prettier.prettierPath` do. A bare name (`cantrip`) is looked up on
 *      PATH; anything else is a path. A setting that names nothing runnable
 *      is reported (never silently skipped), and the search goes on;
 *   2. the project's own `cantrip-lang` in node_modules (walking up from each
 *      workspace folder, as Node resolves packages), only in a trusted
 *      workspace: the editor then says what the project's `cantrip check` and
 *      `cantrip fmt` say, and debugs as its `cantrip run` and `sim` run, at
 *      the version its lockfile pins — as the ESLint and Prettier extensions
 *      prefer the workspace's library to their own;
 *   3. the `cantrip` bundled into the extension (src/cantrip.ts, with only
 *      `lsp` and `dap`): always there, so the extension works in any folder,
 *      an untrusted one included (it reads the project's JSON and spell
 *      files and runs none of its JavaScript).
 *
 * A `cantrip` on PATH is not searched by itself: the bundled program is
 * never missing, a global install is tied to no project, and on npm the name
 * `cantrip` is another package's. `"cantrip.server.path": "cantrip"` asks for it.
 */
import * as path from 'node:path';

/** The npm package that carries `cantrip`, and its launcher inside it. */
export const SERVER_PACKAGE = 'cantrip-lang';
export const LAUNCHER = 'bin/cantrip.js';
/**
 * A program the extension runs from `cantrip`: the command line that starts
 * it (the bundled `cantrip` takes the same one, as the CLI parses it), and
 * the bundle in the extension's folder that answers it (build.mjs's
 * ENTRY_POINTS).
 */
export interface CantripProgram {
  readonly args: readonly string[];
  readonly bundle: string;
}

/** The bundled `cantrip` (src/cantrip.ts): `lsp` and `dap`, one program for both. */
const BUNDLED_CANTRIP = 'dist/cantrip.js';
/** `cantrip lsp`; the language client adds `--stdio`. */
export const LANGUAGE_SERVER: CantripProgram = { args: ['lsp'], bundle: BUNDLED_CANTRIP };
/** `cantrip dap`: the Debug Adapter Protocol on stdio. */
export const DEBUG_ADAPTER: CantripProgram = { args: ['dap'], bundle: BUNDLED_CANTRIP };

export interface ProgramLaunch {
  readonly source: 'setting' | 'workspace' | 'bundled';
  /** `script`: a JavaScript file run with Node; `executable`: a program run as it is. */
  readonly kind: 'script' | 'executable';
  readonly path: string;
}

export interface ProgramSearch {
  readonly launch: ProgramLaunch;
  /** Why the setting was passed over (it names nothing runnable), to say to the user. */
  readonly problem?: string;
  /** Every place looked at, in order. */
  readonly searched: readonly string[];
}

export interface SearchInputs {
  /** `cantrip.server.path`: empty or undefined when unset. */
  readonly setting: string | undefined;
  readonly workspaceFolders: readonly string[];
  /** VS Code's workspace trust: an untrusted workspace's node_modules is never run. */
  readonly workspaceTrusted: boolean;
  /** The extension's own folder, which holds the bundled programs. */
  readonly extensionPath: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly homeDir: string;
  readonly isFile: (file: string) => boolean;
  readonly isDirectory: (dir: string) => boolean;
  /** Follows symbolic links (npm's global `cantrip` is one, to the package's launcher). */
  readonly realPath: (file: string) => string;
}

/** Where `program` is run from (the same place for every program). */
export function locateProgram(program: CantripProgram, inputs: SearchInputs): ProgramSearch {
  const searched: string[] = [];
  let problem: string | undefined;
  const setting = inputs.setting?.trim();
  if (setting) {
    const chosen = fromSetting(setting, inputs, searched);
    if (typeof chosen !== 'string') return { launch: chosen, searched };
    problem = chosen;
  }
  const passedOver = problem === undefined ? {} : { problem };
  if (inputs.workspaceTrusted) {
    for (const candidate of workspaceCandidates(inputs)) {
      searched.push(candidate);
      if (inputs.isFile(candidate)) return { launch: { source: 'workspace', kind: 'script', path: candidate }, searched, ...passedOver };
    }
  }
  const bundled = pathFor(inputs.platform).join(inputs.extensionPath, program.bundle);
  searched.push(bundled);
  return { launch: { source: 'bundled', kind: 'script', path: bundled }, searched, ...passedOver };
}

/** The launch the setting names, or why it names none. */
function fromSetting(setting: string, inputs: SearchInputs, searched: string[]): ProgramLaunch | string {
  const p = pathFor(inputs.platform);
  if (isBareName(setting)) {
    for (const candidate of pathCandidates(setting, inputs)) {
      searched.push(candidate);
      if (inputs.isFile(candidate)) return fromPath(candidate, inputs);
    }
    return `The setting cantrip.server.path is "${setting}", and there is no ${setting} on PATH.`;
  }
  const expanded = setting === '~' || setting.startsWith('~/') ? p.join(inputs.homeDir, setting.slice(1)) : setting;
  const base = inputs.workspaceFolders[0];
  const resolved = p.isAbsolute(expanded) || base === undefined ? p.resolve(expanded) : p.resolve(base, expanded);
  searched.push(resolved);
  // A package folder or a clone of the repository: run its launcher.
  const launcher = p.join(resolved, LAUNCHER);
  if (inputs.isDirectory(resolved) && inputs.isFile(launcher)) return { source: 'setting', kind: 'script', path: launcher };
  if (inputs.isFile(resolved)) return { source: 'setting', kind: /\.[cm]?js$/i.test(resolved) ? 'script' : 'executable', path: resolved };
  return `The setting cantrip.server.path is "${setting}", which is neither a file nor a folder holding ${LAUNCHER}.`;
}

/** `cantrip`, not `./cantrip`, `~` or `bin/cantrip`: a command to look up on PATH, as a shell would. */
function isBareName(setting: string): boolean {
  return !/[\\/]/.test(setting) && setting !== '~' && setting !== '.' && setting !== '..';
}

/**
 * A `cantrip` on PATH is run through the launcher it stands for when that can
 * be found, with the editor's own Node: npm's shims start with
 * `#!/usr/bin/env node`, and an editor started from a desktop menu often has
 * no `node` on its PATH.
 */
function fromPath(found: string, inputs: SearchInputs): ProgramLaunch {
  const p = pathFor(inputs.platform);
  const real = inputs.realPath(found);
  if (/\.[cm]?js$/i.test(real)) return { source: 'setting', kind: 'script', path: real };
  // npm on Windows writes cantrip.cmd beside node_modules/cantrip-lang.
  const beside = p.join(p.dirname(found), 'node_modules', SERVER_PACKAGE, LAUNCHER);
  if (inputs.isFile(beside)) return { source: 'setting', kind: 'script', path: beside };
  return { source: 'setting', kind: 'executable', path: found };
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

/** Where a shell would look for the command `name`. */
function pathCandidates(name: string, inputs: SearchInputs): string[] {
  const windows = inputs.platform === 'win32';
  const p = pathFor(inputs.platform);
  // Windows spells the variable Path and lists runnable extensions in PATHEXT.
  const pathVar = Object.entries(inputs.env).find(([k]) => (windows ? k.toUpperCase() === 'PATH' : k === 'PATH'))?.[1] ?? '';
  const extensions = (inputs.env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).map((ext) => ext.toLowerCase());
  const names = windows ? [...(/\.\w+$/.test(name) ? [name] : []), ...extensions.map((ext) => `${name}${ext}`)] : [name];
  return pathVar
    .split(p.delimiter)
    .filter(Boolean)
    .flatMap((dir) => names.map((n) => p.join(dir, n)));
}

function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** How to start a located program. */
export interface ProgramCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the environment the program inherits. */
  readonly env: Readonly<Record<string, string>>;
  readonly shell: boolean;
}

/**
 * A script runs on `nodePath` — in VS Code the editor's own executable, which
 * ELECTRON_RUN_AS_NODE turns into plain Node — so no `node` on PATH is needed.
 */
export function programCommand(program: CantripProgram, launch: ProgramLaunch, nodePath: string, platform: NodeJS.Platform): ProgramCommand {
  if (launch.kind === 'script') {
    return { command: nodePath, args: [launch.path, ...program.args], env: { ELECTRON_RUN_AS_NODE: '1' }, shell: false };
  }
  // Windows runs .cmd and .bat files only through a shell, which needs the path quoted.
  const shell = platform === 'win32' && /\.(cmd|bat)$/i.test(launch.path);
  return { command: shell ? `"${launch.path}"` : launch.path, args: [...program.args], env: {}, shell };
}
