import { describe, expect, it } from 'vitest';
import { locateServer, serverCommand, type SearchInputs } from './server-location.js';

/** A file system of the given files (and the folders above them), with optional symbolic links. */
function inputs(files: string[], overrides: Partial<SearchInputs> = {}, links: Record<string, string> = {}): SearchInputs {
  const fileSet = new Set(files);
  const isDirectory = (dir: string) => files.some((f) => f.startsWith(`${dir}/`) || f.startsWith(`${dir}\\`));
  return {
    setting: undefined,
    workspaceFolders: ['/home/ann/game/spells'],
    workspaceTrusted: true,
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

describe('locateServer', () => {
  it('finds the workspace\'s cantrip-lang, walking up from the folder as Node resolves packages', () => {
    expect(locateServer(inputs([GAME_LAUNCHER])).launch).toEqual({ source: 'workspace', kind: 'script', path: GAME_LAUNCHER });
  });

  it('prefers the workspace to PATH, and takes PATH when the workspace has none', () => {
    const onPath = '/usr/local/bin/cantrip';
    expect(locateServer(inputs([GAME_LAUNCHER, onPath])).launch?.source).toBe('workspace');
    expect(locateServer(inputs([onPath])).launch).toEqual({ source: 'path', kind: 'executable', path: onPath });
  });

  it('runs npm\'s global `cantrip` link through the launcher it points at, with the editor\'s Node', () => {
    const global = '/usr/local/lib/node_modules/cantrip-lang/bin/cantrip.js';
    const search = locateServer(inputs([], {}, { '/usr/local/bin/cantrip': global }));
    expect(search.launch).toEqual({ source: 'path', kind: 'script', path: global });
  });

  it('on Windows, finds cantrip.cmd on Path through PATHEXT and runs the launcher npm put beside it', () => {
    const cmd = 'C:\\Users\\ann\\AppData\\Roaming\\npm\\cantrip.cmd';
    const launcher = 'C:\\Users\\ann\\AppData\\Roaming\\npm\\node_modules\\cantrip-lang\\bin\\cantrip.js';
    const windows = { platform: 'win32' as const, workspaceFolders: ['C:\\game'], env: { Path: 'C:\\Windows;C:\\Users\\ann\\AppData\\Roaming\\npm', PATHEXT: '.EXE;.CMD' } };
    expect(locateServer(inputs([cmd, launcher], windows)).launch).toEqual({ source: 'path', kind: 'script', path: launcher });
    expect(locateServer(inputs([cmd], windows)).launch).toEqual({ source: 'path', kind: 'executable', path: cmd });
  });

  it('never runs an untrusted workspace\'s node_modules, and says so when nothing else is found', () => {
    const search = locateServer(inputs([GAME_LAUNCHER], { workspaceTrusted: false }));
    expect(search.launch).toBeNull();
    if (search.launch === null) {
      expect(search.problem).toMatch(/not trusted/);
      expect(search.searched).not.toContain(GAME_LAUNCHER);
    }
  });

  it('lists every place it looked when nothing is found', () => {
    const search = locateServer(inputs([]));
    expect(search.launch).toBeNull();
    if (search.launch === null) {
      expect(search.searched).toEqual([
        '/home/ann/game/spells/node_modules/cantrip-lang/bin/cantrip.js',
        GAME_LAUNCHER,
        '/home/ann/node_modules/cantrip-lang/bin/cantrip.js',
        '/home/node_modules/cantrip-lang/bin/cantrip.js',
        '/node_modules/cantrip-lang/bin/cantrip.js',
        '/usr/local/bin/cantrip',
        '/usr/bin/cantrip',
      ]);
    }
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
      const search = locateServer(inputs([GAME_LAUNCHER, clone, '/opt/cantrip.js', '/opt/bin/cantrip'], { setting }));
      expect(search.launch, setting).toEqual({ source: 'setting', ...expected });
    }
  });

  it('reports a setting that names nothing instead of quietly using another server', () => {
    const search = locateServer(inputs([GAME_LAUNCHER], { setting: '/opt/nope' }));
    expect(search.launch).toBeNull();
    if (search.launch === null) expect(search.problem).toBe('The setting cantrip.server.path is "/opt/nope", which is neither a file nor a folder holding bin/cantrip.js.');
  });
});

describe('serverCommand', () => {
  it('runs a launcher script with the given Node as plain Node, and an executable as it is', () => {
    expect(serverCommand({ source: 'workspace', kind: 'script', path: GAME_LAUNCHER }, '/vscode/code', 'linux')).toEqual({
      command: '/vscode/code',
      args: [GAME_LAUNCHER, 'lsp'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      shell: false,
    });
    expect(serverCommand({ source: 'path', kind: 'executable', path: '/usr/bin/cantrip' }, '/vscode/code', 'linux')).toEqual({
      command: '/usr/bin/cantrip',
      args: ['lsp'],
      env: {},
      shell: false,
    });
  });

  it('runs a Windows .cmd through the shell, quoted', () => {
    const cmd = 'C:\\Program Files\\npm\\cantrip.cmd';
    expect(serverCommand({ source: 'path', kind: 'executable', path: cmd }, 'code.exe', 'win32')).toMatchObject({ command: `"${cmd}"`, shell: true });
  });
});
