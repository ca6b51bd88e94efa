/**
 * docs/editors.md's Neovim configurations, taken from the page as written and
 * run in the real `nvim` (headless): a project with the package installed
 * (node_modules/.bin/cantrip, as npm makes it, so the snippets' `npx --no
 * cantrip` is what runs) and a spell that reads a misspelt breed property;
 * the snippet must give the buffer its filetype and comment string, start
 * `cantrip lsp --stdio` at the folder holding cantrip.json, and the breed-aware
 * diagnostic must arrive. Each snippet runs on the Neovim versions it is for;
 * without `nvim` (or with one too old for a snippet) it is skipped with a
 * notice, as the browser tests skip without Chromium. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../temp-dir.test-helper.js';
import { REPO } from './lsp-client.js';

/** The Lua blocks of the page's Neovim section, by their first line (`-- Neovim 0.7 and later`): the version they need. */
function neovimSnippets(): { minor: number; lua: string }[] {
  const page = readFileSync(join(REPO, 'docs/editors.md'), 'utf8');
  const section = page.slice(page.indexOf('## Neovim'), page.indexOf('## Helix'));
  return [...section.matchAll(/```lua\n(-- Neovim 0\.(\d+) and later\n[\s\S]*?)```/g)].map((m) => ({ minor: Number(m[2]), lua: m[1]! }));
}

/** The installed nvim's minor version (0.x), or null without one. */
function nvimMinor(): number | null {
  const result = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  const version = result.status === 0 ? /NVIM v0\.(\d+)/.exec(result.stdout) : null;
  return version ? Number(version[1]) : null;
}

/** Run after the spell is loaded: waits for diagnostics, writes what the buffer got as JSON, quits. */
const CHECK = `
local arrived = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(diagnostics, { line = d.lnum, message = d.message }) end
local attached = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = 0 }) or vim.lsp.buf_get_clients(0)
local clients = {}
for _, c in pairs(attached) do table.insert(clients, { name = c.name, root = c.config.root_dir }) end
vim.fn.writefile({ vim.fn.json_encode({ arrived = arrived, filetype = vim.bo.filetype, commentstring = vim.bo.commentstring, diagnostics = diagnostics, clients = clients }) }, vim.env.CANTRIP_NVIM_RESULT)
vim.cmd('qall!')
`;

/** A game's project with cantrip-lang installed (linked to this checkout) and a spell that misspells a breed's property. */
function gameProject(): string {
  const project = tempDir('cantrip-nvim-');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'game', private: true }));
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(REPO, join(project, 'node_modules', 'cantrip-lang'), 'dir');
  symlinkSync('../cantrip-lang/bin/cantrip.js', join(project, 'node_modules', '.bin', 'cantrip'));
  mkdirSync(join(project, 'spells'));
  writeFileSync(join(project, 'spells', 'cantrip.json'), JSON.stringify({ breeds: 'breeds.json' }));
  writeFileSync(join(project, 'spells', 'breeds.json'), JSON.stringify({ breeds: [{ name: 'Troll', health: 30, attributes: { wisdom: 2 } }] }));
  writeFileSync(join(project, 'spells', 'zap.spell'), 'spell zap(caster, target) {\n  damage(target, caster.wisdm);\n}\n');
  return project;
}

const installed = nvimMinor();
const snippets = neovimSnippets();
if (installed === null) console.warn('[neovim] SKIPPED: no nvim on PATH (apt-get install neovim).');

describe("docs/editors.md's Neovim configuration in the real nvim", () => {
  it('has a snippet for Neovim 0.7 and one for 0.8 and later', () => {
    expect(snippets.map((s) => s.minor)).toEqual([8, 7]);
  });

  for (const snippet of snippets) {
    const runs = installed !== null && installed >= snippet.minor;
    if (installed !== null && !runs) console.warn(`[neovim] SKIPPED: the Neovim 0.${snippet.minor} snippet needs nvim 0.${snippet.minor} or later; this is 0.${installed}.`);
    it.skipIf(!runs)(`Neovim 0.${snippet.minor} and later: a spell opened in a project gets the server's breed-aware diagnostic`, () => {
      const project = gameProject();
      writeFileSync(join(project, 'init.lua'), snippet.lua);
      writeFileSync(join(project, 'check.lua'), CHECK);
      const resultFile = join(project, 'result.json');
      const nvim = spawnSync('nvim', ['--headless', '-u', 'init.lua', '-c', 'luafile check.lua', 'spells/zap.spell'], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, CANTRIP_NVIM_RESULT: resultFile, XDG_CONFIG_HOME: join(project, 'config'), XDG_DATA_HOME: join(project, 'data'), XDG_STATE_HOME: join(project, 'state') },
        timeout: 60_000,
      });
      expect(nvim.status, `nvim: ${nvim.stderr}${nvim.stdout}`).toBe(0);
      const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { arrived: boolean; filetype: string; commentstring: string; diagnostics: { line: number; message: string }[]; clients: { name: string; root: string }[] };
      expect(result).toMatchObject({ arrived: true, filetype: 'cantrip', commentstring: '// %s', clients: [{ name: 'cantrip', root: join(project, 'spells') }] });
      expect(result.diagnostics).toEqual([{ line: 1, message: "No breed has a property 'wisdm'; did you mean 'wisdom'?" }]);
    }, 70_000);
  }
});
