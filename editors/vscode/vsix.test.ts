/**
 * `npm run vsix` end to end (offline): the client, and the `cantrip` it
 * starts as language server and debug adapter (`lsp` and `dap`, one program),
 * bundled into one CommonJS file each, packaged by @vscode/vsce with the
 * grammar and the language configuration. The .vsix is
 * unpacked into a temporary folder with no node_modules around it, as VS Code
 * installs it; the client, as VS Code would load it, is activated against a
 * stand-in `vscode` module (it starts the bundled server, or the project's
 * own, and gives the bundled adapter for a debug session); the bundled server
 * is driven as vscode-languageclient drives it, the bundled adapter as VS
 * Code's debugger does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedFiles } from './grammar/generated-files.js';
import { SCOPE_NAME } from './grammar/textmate.js';
import { DapClient } from '../../tests/dap/dap-client.js';
import { LspClient } from '../../tests/lsp/lsp-client.js';
import { DEBUG_ADAPTER, LANGUAGE_SERVER, programCommand } from './src/server-location.js';
import { expectWorkingSession, writeGameProject } from './src/server-session.test-helper.js';
import { zipEntries } from './zip-entries.test-helper.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cantrip-vsix-'));
const vsixPath = join(work, 'cantrip.vsix');
/** Where the .vsix is unpacked, as VS Code unpacks an extension it installs. */
const installed = join(work, 'installed');
/** The bundled `cantrip`: the language server (`lsp --stdio`) and the debug adapter (`dap`). */
const bundledCantrip = join(installed, 'dist/cantrip.js');
let entries: Map<string, Buffer>;

beforeAll(() => {
  const build = spawnSync(process.execPath, [join(here, 'build.mjs'), '--no-generate', '--out', vsixPath], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run vsix failed:\n${build.stdout}${build.stderr}`);
  entries = zipEntries(readFileSync(vsixPath));
  for (const [name, bytes] of entries) {
    if (!name.startsWith('extension/')) continue;
    const target = join(installed, name.slice('extension/'.length));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const text = (name: string) => {
  const entry = entries.get(`extension/${name}`);
  if (!entry) throw new Error(`${name} is not in the vsix (it has ${[...entries.keys()].join(', ')})`);
  return entry.toString('utf8');
};

interface Manifest {
  main: string;
  contributes: { languages: { id: string; extensions: string[]; configuration: string }[]; grammars: { language: string; scopeName: string; path: string }[] };
}

describe('the .vsix', () => {
  it('holds the manifest, the bundled client and cantrip, the grammar, the language configuration, a README and a LICENSE, and no sources', () => {
    const names = [...entries.keys()].filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length)).sort();
    expect(names).toEqual(['LICENSE.txt', 'dist/cantrip.js', 'dist/extension.js', 'language-configuration.json', 'package.json', 'readme.md', 'syntaxes/cantrip.tmLanguage.json']);
    expect(entries.has('extension.vsixmanifest')).toBe(true);
  });

  it('points the manifest at the packaged files: .spell files are Cantrip, with its grammar and configuration', () => {
    const manifest = JSON.parse(text('package.json')) as Manifest;
    const relative = (p: string) => p.replace(/^\.\//, '');
    expect(text(relative(manifest.main))).toContain('activate');
    const [language] = manifest.contributes.languages;
    expect(language).toMatchObject({ id: 'cantrip', extensions: ['.spell'] });
    const [grammar] = manifest.contributes.grammars;
    expect(grammar).toMatchObject({ language: 'cantrip', scopeName: SCOPE_NAME });
    // What is packaged is what the generator makes from the lexicon today.
    const generated = new Map(generatedFiles().map((f) => [f.path, f.text]));
    expect(text(relative(grammar!.path))).toBe(generated.get(relative(grammar!.path)));
    expect(text(relative(language!.configuration))).toBe(generated.get(relative(language!.configuration)));
  });
});

/**
 * Whatever the language client asks of the editor beyond what the stand-in
 * spells out: callable, constructible, iterable as empty, never a promise;
 * what is stored on it stays stored.
 */
function anything(): any {
  return new Proxy(function () {}, {
    get(target, key) {
      if (Reflect.has(target, key)) return Reflect.get(target, key);
      if (key === 'then') return undefined;
      if (key === Symbol.iterator) return function* () {};
      if (key === Symbol.toPrimitive) return () => '';
      return anything();
    },
    apply: () => anything(),
    construct: () => anything(),
  });
}

/** Answers from `known`, and anything() for the rest. */
const lenient = <T extends object>(known: T): T =>
  new Proxy(known, { get: (target, key) => (Reflect.has(target, key) ? Reflect.get(target, key) : anything()) });

/** A stand-in for the `vscode` module: what activation touches, recorded; the rest lenient. */
function fakeVscode(settings: Record<string, string>, folders: string[]) {
  const messages: string[] = [];
  const logged: string[] = [];
  const commands: string[] = [];
  const debugAdapters = new Map<string, { createDebugAdapterDescriptor(session: unknown): unknown }>();
  const disposable = { dispose() {} };
  const channel = {
    info: (line: string) => logged.push(line),
    warn: (line: string) => logged.push(line),
    error: (line: string) => logged.push(line),
    appendLine: (line: string) => logged.push(line),
    show() {},
    dispose() {},
  };
  const vscode = lenient({
    version: '1.91.0',
    env: lenient({ language: 'en', appName: 'stand-in' }),
    window: lenient({
      createOutputChannel: () => lenient(channel),
      showWarningMessage: async (message: string) => void messages.push(message),
      showErrorMessage: async (message: string) => void messages.push(message),
      showInformationMessage: async (message: string) => void messages.push(message),
      visibleTextEditors: [],
      activeTextEditor: undefined,
      tabGroups: lenient({ all: [] }),
    }),
    commands: lenient({
      registerCommand: (id: string) => (commands.push(id), disposable),
      executeCommand: async () => undefined,
    }),
    // What the debug adapter factory returns: VS Code spawns `command` with `args` and `options`.
    DebugAdapterExecutable: class {
      constructor(
        readonly command: string,
        readonly args: string[],
        readonly options: { env: Record<string, string>; cwd?: string },
      ) {}
    },
    debug: lenient({
      registerDebugAdapterDescriptorFactory: (type: string, factory: { createDebugAdapterDescriptor(session: unknown): unknown }) => (debugAdapters.set(type, factory), disposable),
      registerDebugConfigurationProvider: () => disposable,
    }),
    workspace: lenient({
      getConfiguration: () => lenient({ get: (key: string) => settings[key] }),
      workspaceFolders: folders.map((fsPath, index) => ({ uri: lenient({ scheme: 'file', fsPath, toString: () => `file://${fsPath}` }), name: fsPath, index })),
      textDocuments: [],
      notebookDocuments: [],
      isTrusted: true,
    }),
  });
  return { vscode, messages, logged, commands, debugAdapters };
}

/** The ExtensionContext activation reads: the installed extension's folder. */
const context = () => ({ subscriptions: [], extensionPath: installed, asAbsolutePath: (relative: string) => join(installed, relative) });

/** Loads the bundle as VS Code's CommonJS loader would, with `require('vscode')` answered by the stand-in. */
function loadBundle(vscode: unknown): { exports: Record<string, unknown>; required: Set<string> } {
  const source = text('dist/extension.js');
  const realRequire = createRequire(join(work, 'extension.js'));
  const required = new Set<string>();
  const module = { exports: {} as Record<string, unknown> };
  const requireFn = (id: string) => {
    required.add(id);
    return id === 'vscode' ? vscode : realRequire(id);
  };
  new Function('exports', 'require', 'module', '__filename', '__dirname', source)(module.exports, requireFn, module, join(work, 'extension.js'), work);
  return { exports: module.exports, required };
}

describe('the bundled client', () => {
  it('needs nothing but `vscode` and Node\'s own modules, and exports activate and deactivate', () => {
    const { vscode } = fakeVscode({}, []);
    const { exports, required } = loadBundle(vscode);
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    expect([...required].filter((id) => id !== 'vscode' && !builtins.has(id))).toEqual([]);
    expect(typeof exports['activate']).toBe('function');
    expect(typeof exports['deactivate']).toBe('function');
  });

  it('with no server in the project, registers its commands and starts the bundled one, saying nothing; a debug session gets the bundled adapter', async () => {
    const emptyWorkspace = mkdtempSync(join(work, 'workspace-'));
    const saved = process.env['PATH'];
    process.env['PATH'] = emptyWorkspace; // no `cantrip` and no `node` on it: the server runs on the editor's own Node
    try {
      const fake = fakeVscode({}, [emptyWorkspace]);
      const { exports } = loadBundle(fake.vscode);
      await (exports['activate'] as (context: unknown) => Promise<void>)(context());
      expect(fake.commands).toEqual(['cantrip.restartServer', 'cantrip.showOutput']);
      expect([...fake.debugAdapters.keys()]).toEqual(['cantrip']);
      expect(fake.messages).toEqual([]);
      const log = fake.logged.join('\n');
      expect(log).toContain(join(emptyWorkspace, 'node_modules/cantrip-lang/bin/cantrip.js'));
      expect(log).toContain(`Starting the Cantrip language server (bundled with the extension): ${bundledCantrip}`);
      expect(log).not.toMatch(/did not start/);
      // The adapter is found by the same search: the bundled one, on the editor's Node (the command the test below runs).
      const session = { workspaceFolder: { uri: { scheme: 'file', fsPath: emptyWorkspace } } };
      const adapter = fake.debugAdapters.get('cantrip')!.createDebugAdapterDescriptor(session) as { command: string; args: string[]; options: { env: Record<string, string>; cwd?: string } };
      expect(adapter).toMatchObject({ command: process.execPath, args: [bundledCantrip, 'dap'], options: { cwd: emptyWorkspace, env: { ELECTRON_RUN_AS_NODE: '1' } } });
      expect(fake.logged.join('\n')).toContain(`Starting the Cantrip debug adapter (bundled with the extension): ${bundledCantrip}`);
      await (exports['deactivate'] as () => Promise<void>)();
    } finally {
      process.env['PATH'] = saved;
    }
  }, 30_000);

  it('names the setting when cantrip.server.path points at nothing, and runs the bundled server instead', async () => {
    const fake = fakeVscode({ 'cantrip.server.path': join(work, 'missing/cantrip') }, []);
    const { exports } = loadBundle(fake.vscode);
    await (exports['activate'] as (context: unknown) => Promise<void>)(context());
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0]).toMatch(/cantrip\.server\.path is ".*missing\/cantrip", which is neither a file nor a folder.*Using the language server bundled with the extension instead\./);
    await (exports['deactivate'] as () => Promise<void>)();
  }, 30_000);
});

/**
 * The environment a bundled program runs in for the tests below: nothing
 * found on NODE_PATH, and any require of something that is not Node's own
 * fails the run — the bundle must carry everything.
 */
function onlyBuiltins(): Record<string, string> {
  for (let dir = installed; dirname(dir) !== dir; dir = dirname(dir)) expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
  const guard = join(work, 'only-builtins.cjs');
  writeFileSync(
    guard,
    `const Module = require('node:module');
const own = new Set(Module.builtinModules);
const require_ = Module.prototype.require;
Module.prototype.require = function (id) {
  if (!own.has(id.replace(/^node:/, ''))) throw new Error('the bundled program required ' + id);
  return require_.apply(this, arguments);
};
`,
  );
  return { NODE_PATH: '', NODE_OPTIONS: `--require ${guard}` };
}

describe('the bundled cantrip as language server (`lsp --stdio`)', () => {
  it('runs from the installed extension with no node_modules around it, needing only Node\'s own modules, and answers as the project\'s own server does', async () => {
    const project = mkdtempSync(join(work, 'project-'));
    writeGameProject(project);
    const command = programCommand(LANGUAGE_SERVER, { source: 'bundled', kind: 'script', path: bundledCantrip }, process.execPath, process.platform);
    // vscode-languageclient appends `--stdio` to an Executable's arguments for TransportKind.stdio.
    const client = new LspClient(project, {
      command: command.command,
      args: [...command.args, '--stdio'],
      env: { ...command.env, ...onlyBuiltins() },
    });
    try {
      await expectWorkingSession(client, project);
      expect(client.stderr).toBe('');
    } finally {
      await client.stop();
    }
  }, 30_000);
});

describe('the bundled cantrip as debug adapter (`dap`)', () => {
  it("runs from the installed extension with no node_modules around it, needing only Node's own modules, and debugs a cast in a world of the project's breeds", async () => {
    const project = mkdtempSync(join(work, 'project-'));
    writeGameProject(project);
    const spell = join(project, 'spells', 'gaze.spell');
    writeFileSync(spell, 'spell gaze(caster, target) {\n    var wisdom = target.wisdom;\n    print wisdom;\n}\n');
    const command = programCommand(DEBUG_ADAPTER, { source: 'bundled', kind: 'script', path: bundledCantrip }, process.execPath, process.platform);
    const client = new DapClient(project, { command: command.command, args: command.args, env: { ...command.env, ...onlyBuiltins() } });
    try {
      // The trolls come from the breeds file spells/cantrip.json names, read as every command reads it.
      const launched = await client.launch({ program: spell, spell: 'gaze', args: [{ breed: 'Troll' }, { breed: 'Troll' }] }, { [spell]: [3] });
      expect(launched.success, launched.message).toBe(true);
      await client.event('stopped');
      const frame = await client.topFrame();
      expect(frame).toMatchObject({ name: 'gaze', line: 3, source: { path: spell } });
      expect((await client.scope(frame.id, 'Locals')).get('wisdom')?.value).toBe('2');
      await client.request('continue', { threadId: 1 });
      expect((await client.event('exited')).body.exitCode).toBe(0);
      expect(client.output('stdout')).toBe('2\n');
      expect(client.stderr).toBe('');
    } finally {
      await client.close();
    }
  }, 30_000);
});

/**
 * A workspace with node_modules/cantrip-lang whose launcher is a minimal
 * language server (vscode-languageserver) that writes down how it was started.
 */
function workspaceWithStubServer(): { folder: string; log: string } {
  const folder = mkdtempSync(join(work, 'game-'));
  const bin = join(folder, 'node_modules/cantrip-lang/bin');
  mkdirSync(bin, { recursive: true });
  const log = join(folder, 'server.log');
  const serverModule = createRequire(import.meta.url).resolve('vscode-languageserver/node');
  writeFileSync(
    join(bin, 'cantrip.js'),
    `const fs = require('fs');
const { createConnection, ProposedFeatures } = require(${JSON.stringify(serverModule)});
fs.writeFileSync(${JSON.stringify(log)}, JSON.stringify({ argv: process.argv.slice(2), electronRunAsNode: process.env.ELECTRON_RUN_AS_NODE }) + '\\n');
const connection = createConnection(ProposedFeatures.all);
connection.onInitialize(() => ({ capabilities: {}, serverInfo: { name: 'stub' } }));
connection.onShutdown(() => fs.appendFileSync(${JSON.stringify(log)}, 'shutdown\\n'));
connection.listen();
`,
  );
  return { folder, log };
}

describe('the bundled client with a server in the workspace', () => {
  it('starts node_modules/cantrip-lang/bin/cantrip.js as `lsp --stdio` on the editor\'s Node, completes the handshake, and shuts it down on deactivate', async () => {
    const { folder, log } = workspaceWithStubServer();
    const fake = fakeVscode({}, [join(folder, 'spells')]);
    const { exports } = loadBundle(fake.vscode);
    await (exports['activate'] as (context: unknown) => Promise<void>)(context());
    expect(fake.messages).toEqual([]);
    expect(fake.logged.join('\n')).toContain(`from the workspace's cantrip-lang package): ${join(folder, 'node_modules/cantrip-lang/bin/cantrip.js')}`);
    const started = JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!) as { argv: string[]; electronRunAsNode: string };
    expect(started).toEqual({ argv: ['lsp', '--stdio'], electronRunAsNode: '1' });
    await (exports['deactivate'] as () => Promise<void>)();
    expect(existsSync(log) && readFileSync(log, 'utf8')).toContain('shutdown');
  }, 30_000);
});
