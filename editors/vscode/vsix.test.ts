/**
 * `npm run vsix` end to end (offline): the client bundled into one CommonJS
 * file, packaged by @vscode/vsce with the grammar and the language
 * configuration; then the bundle, as VS Code would load it, activated
 * against a stand-in `vscode` module to see it explain a missing server.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedFiles } from './grammar/generated-files.js';
import { zipEntries } from './zip-entries.test-helper.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cantrip-vsix-'));
const vsixPath = join(work, 'cantrip.vsix');
let entries: Map<string, Buffer>;

beforeAll(() => {
  const build = spawnSync(process.execPath, [join(here, 'build.mjs'), '--no-generate', '--out', vsixPath], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run vsix failed:\n${build.stdout}${build.stderr}`);
  entries = zipEntries(readFileSync(vsixPath));
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
  it('holds the manifest, the bundled client, the grammar, the language configuration, a README and a LICENSE, and no sources', () => {
    const names = [...entries.keys()].filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length)).sort();
    expect(names).toEqual(['LICENSE.txt', 'dist/extension.js', 'language-configuration.json', 'package.json', 'readme.md', 'syntaxes/cantrip.tmLanguage.json']);
    expect(entries.has('extension.vsixmanifest')).toBe(true);
  });

  it('points the manifest at the packaged files: .spell files are Cantrip, with its grammar and configuration', () => {
    const manifest = JSON.parse(text('package.json')) as Manifest;
    const relative = (p: string) => p.replace(/^\.\//, '');
    expect(text(relative(manifest.main))).toContain('activate');
    const [language] = manifest.contributes.languages;
    expect(language).toMatchObject({ id: 'cantrip', extensions: ['.spell'] });
    const [grammar] = manifest.contributes.grammars;
    expect(grammar).toMatchObject({ language: 'cantrip', scopeName: 'source.cantrip' });
    // What is packaged is what the generator makes from the lexicon today.
    const generated = new Map(generatedFiles().map((f) => [f.path, f.text]));
    expect(text(relative(grammar!.path))).toBe(generated.get(relative(grammar!.path)));
    expect(text(relative(language!.configuration))).toBe(generated.get(relative(language!.configuration)));
  });
});

/** A stand-in for the `vscode` module: what activation touches, recorded; anything else an empty class. */
function fakeVscode(settings: Record<string, string>, folders: string[]) {
  const messages: string[] = [];
  const logged: string[] = [];
  const commands: string[] = [];
  const disposable = { dispose() {} };
  const channel = {
    info: (line: string) => logged.push(line),
    warn: (line: string) => logged.push(line),
    error: (line: string) => logged.push(line),
    appendLine: (line: string) => logged.push(line),
    show() {},
    dispose() {},
  };
  const api: Record<string, unknown> = {
    window: {
      createOutputChannel: () => channel,
      showWarningMessage: async (message: string) => void messages.push(message),
      showErrorMessage: async (message: string) => void messages.push(message),
    },
    commands: {
      registerCommand: (id: string) => (commands.push(id), disposable),
      executeCommand: async () => undefined,
    },
    workspace: {
      getConfiguration: () => ({ get: (key: string) => settings[key] }),
      workspaceFolders: folders.map((fsPath) => ({ uri: { scheme: 'file', fsPath } })),
      isTrusted: true,
      onDidChangeConfiguration: () => disposable,
      onDidChangeWorkspaceFolders: () => disposable,
      onDidGrantWorkspaceTrust: () => disposable,
    },
  };
  const vscode = new Proxy(api, { get: (target, key: string) => target[key] ?? class {} });
  return { vscode, messages, logged, commands };
}

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

  it('with no server anywhere, registers its commands and says what to install, without failing', async () => {
    const emptyWorkspace = mkdtempSync(join(work, 'workspace-'));
    const saved = process.env['PATH'];
    process.env['PATH'] = emptyWorkspace; // no `cantrip` on it
    try {
      const fake = fakeVscode({}, [emptyWorkspace]);
      const { exports } = loadBundle(fake.vscode);
      await (exports['activate'] as (context: unknown) => Promise<void>)({ subscriptions: [] });
      expect(fake.commands).toEqual(['cantrip.restartServer', 'cantrip.showOutput']);
      expect(fake.messages).toHaveLength(1);
      expect(fake.messages[0]).toMatch(/No Cantrip language server was found/);
      expect(fake.messages[0]).toMatch(/npm install --save-dev cantrip-lang/);
      expect(fake.logged.join('\n')).toContain(join(emptyWorkspace, 'node_modules/cantrip-lang/bin/cantrip.js'));
    } finally {
      process.env['PATH'] = saved;
    }
  });

  it('names the setting when cantrip.server.path points at nothing', async () => {
    const fake = fakeVscode({ 'cantrip.server.path': join(work, 'missing/cantrip') }, []);
    const { exports } = loadBundle(fake.vscode);
    await (exports['activate'] as (context: unknown) => Promise<void>)({ subscriptions: [] });
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0]).toMatch(/cantrip\.server\.path is ".*missing\/cantrip", which is neither a file nor a folder/);
  });
});
