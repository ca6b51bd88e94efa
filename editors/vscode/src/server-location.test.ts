import { describe, expect, it } from 'vitest';
import { DEBUG_ADAPTER, LANGUAGE_SERVER, locateProgram, programCommand, type SearchInputs } from './server-location.js';

/** A file system of the given files (and the folders above them), with optional symbolic links. */
function inputs(files: string[], overrides: Partial<SearchInputs> = {}, links: Record<string, string> = {}): SearchInputs {
  const fileSet = new Set(files);
  const isDirectory = (dir: string) => files.some((f) => f.startsWith(`${dir}/`) || f.startsWith(`${dir}\\`));
  return {
    setting: undefined,
    workspaceFolders: ['/home/ann/game/spells'],
    workspaceTrusted: true,
    extensionPath: EXTENSION,
    env: { PATH: '/usr/local/bin:/usr/bin' },
    platform: 'linux',
    homeDir: '/home/ann',
    isFile: (f) => fileSet.has(f) || f in links,
    isDirectory,
    realPath: (f) => links[f] ?? f,
    ...overrides,
  };
}

const GAME_LAUNCHER = '/home/ann/game/node_modules/cantrip-lang/bin/cantrip.js';
const EXTENSION = '/home/ann/.vscode/extensions/cantrip-lang.cantrip-0.1.0';
/** The bundled `cantrip` (lsp and dap, one program). */
const BUNDLED = `${EXTENSION}/dist/cantrip.js`;

describe('locateProgram', () => {
  it("finds the workspace's cantrip-lang, walking up from the folder as Node resolves packages", () => {
    expect(locateProgram(LANGUAGE_SERVER, inputs([GAME_LAUNCHER])).launch).toEqual({ source: 'workspace', kind: 'script', path: GAME_LAUNCHER });
  });

  it('runs the bundled server when the project has none, having looked in every folder above it; PATH is not searched', () => {
    const search = locateProgram(LANGUAGE_SERVER, inputs(['/usr/local/bin/cantrip']));
    expect(search).toEqual({
      launch: { source: 'bundled', kind: 'script', path: BUNDLED },
      searched: [
        '/home/ann/game/spells/node_modules/cantrip-lang/bin/cantrip.js',
        GAME_LAUNCHER,
        '/home/ann/node_modules/cantrip-lang/bin/cantrip.js',
        '/home/node_modules/cantrip-lang/bin/cantrip.js',
        '/node_modules/cantrip-lang/bin/cantrip.js',
        BUNDLED,
      ],
    });
  });

  it("never runs an untrusted workspace's node_modules: the bundled server runs instead", () => {
    const search = locateProgram(LANGUAGE_SERVER, inputs([GAME_LAUNCHER], { workspaceTrusted: false }));
    expect(search).toEqual({ launch: { source: 'bundled', kind: 'script', path: BUNDLED }, searched: [BUNDLED] });
  });

  it('takes the setting first: a launcher, an executable, a package folder or clone, relative or from ~', () => {
    const clone = '/home/ann/src/cantrip/bin/cantrip.js';
    const cases: [string, object][] = [
      ['/opt/cantrip.js', { kind: 'script', path: '/opt/cantrip.js' }],
      ['/opt/bin/cantrip', { kind: 'executable', path: '/opt/bin/cantrip' }],
      ['/home/ann/src/cantrip', { kind: 'script', path: clone }],
      ['~/src/cantrip', { kind: 'script', path: clone }],
      ['../../src/cantrip/', { kind: 'script', path: clone }],
    ];
    for (const [setting, expected] of cases) {
      const search = locateProgram(LANGUAGE_SERVER, inputs([GAME_LAUNCHER, clone, '/opt/cantrip.js', '/opt/bin/cantrip'], { setting }));
      expect(search.launch, setting).toEqual({ source: 'setting', ...expected });
    }
  });

  it('looks a bare name up on PATH, running npm\'s global link through the launcher it points at, with the editor\'s Node', () => {
    const global = '/usr/local/lib/node_modules/cantrip-lang/bin/cantrip.js';
    expect(locateProgram(LANGUAGE_SERVER, inputs([GAME_LAUNCHER], { setting: 'cantrip' }, { '/usr/local/bin/cantrip': global })).launch).toEqual({ source: 'setting', kind: 'script', path: global });
    expect(locateProgram(LANGUAGE_SERVER, inputs(['/usr/bin/cantrip'], { setting: 'cantrip' })).launch).toEqual({ source: 'setting', kind: 'executable', path: '/usr/bin/cantrip' });
  });

  it('on Windows, finds a bare name on Path through PATHEXT and runs the launcher npm put beside cantrip.cmd', () => {
    const cmd = 'C:\\Users\\ann\\AppData\\Roaming\\npm\\cantrip.cmd';
    const launcher = 'C:\\Users\\ann\\AppData\\Roaming\\npm\\node_modules\\cantrip-lang\\bin\\cantrip.js';
    const windows = { setting: 'cantrip', platform: 'win32' as const, workspaceFolders: ['C:\\game'], env: { Path: 'C:\\Windows;C:\\Users\\ann\\AppData\\Roaming\\npm', PATHEXT: '.EXE;.CMD' } };
    expect(locateProgram(LANGUAGE_SERVER, inputs([cmd, launcher], windows)).launch).toEqual({ source: 'setting', kind: 'script', path: launcher });
    expect(locateProgram(LANGUAGE_SERVER, inputs([cmd], windows)).launch).toEqual({ source: 'setting', kind: 'executable', path: cmd });
  });

  it('finds the debug adapter by the same search: the same setting, workspace package and bundled cantrip', () => {
    expect(locateProgram(DEBUG_ADAPTER, inputs([GAME_LAUNCHER])).launch).toEqual({ source: 'workspace', kind: 'script', path: GAME_LAUNCHER });
    expect(locateProgram(DEBUG_ADAPTER, inputs(['/opt/bin/cantrip'], { setting: '/opt/bin/cantrip' })).launch).toEqual({ source: 'setting', kind: 'executable', path: '/opt/bin/cantrip' });
    const bundled = locateProgram(DEBUG_ADAPTER, inputs([GAME_LAUNCHER], { workspaceTrusted: false }));
    expect(bundled).toEqual({ launch: { source: 'bundled', kind: 'script', path: BUNDLED }, searched: [BUNDLED] });
  });

  it('reports a setting that names nothing, and goes on to the project\'s server or the bundled one', () => {
    const search = locateProgram(LANGUAGE_SERVER, inputs([GAME_LAUNCHER], { setting: '/opt/nope' }));
    expect(search.problem).toBe('The setting cantrip.server.path is "/opt/nope", which is neither a file nor a folder holding bin/cantrip.js.');
    expect(search.launch).toEqual({ source: 'workspace', kind: 'script', path: GAME_LAUNCHER });
    const bare = locateProgram(LANGUAGE_SERVER, inputs([], { setting: 'cantrip' }));
    expect(bare.problem).toBe('The setting cantrip.server.path is "cantrip", and there is no cantrip on PATH.');
    expect(bare.launch.source).toBe('bundled');
    expect(bare.searched.slice(0, 2)).toEqual(['/usr/local/bin/cantrip', '/usr/bin/cantrip']);
  });
});

describe('programCommand', () => {
  it('runs a launcher script with the given Node as plain Node, and an executable as it is', () => {
    expect(programCommand(LANGUAGE_SERVER, { source: 'workspace', kind: 'script', path: GAME_LAUNCHER }, '/vscode/code', 'linux')).toEqual({
      command: '/vscode/code',
      args: [GAME_LAUNCHER, 'lsp'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      shell: false,
    });
    expect(programCommand(LANGUAGE_SERVER, { source: 'setting', kind: 'executable', path: '/usr/bin/cantrip' }, '/vscode/code', 'linux')).toEqual({
      command: '/usr/bin/cantrip',
      args: ['lsp'],
      env: {},
      shell: false,
    });
  });

  it("starts the debug adapter with `dap` in place of `lsp`, the bundled one as plain Node on the editor's own", () => {
    expect(programCommand(DEBUG_ADAPTER, { source: 'bundled', kind: 'script', path: BUNDLED }, '/vscode/code', 'linux')).toEqual({
      command: '/vscode/code',
      args: [BUNDLED, 'dap'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      shell: false,
    });
  });

  it('runs a Windows .cmd through the shell, quoted', () => {
    const cmd = 'C:\\Program Files\\npm\\cantrip.cmd';
    expect(programCommand(LANGUAGE_SERVER, { source: 'setting', kind: 'executable', path: cmd }, 'code.exe', 'win32')).toMatchObject({ command: `"${cmd}"`, shell: true });
  });
});
