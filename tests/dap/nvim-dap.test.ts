/**
 * docs/editors.md's nvim-dap configuration in a real Neovim, headless:
 * a breakpoint, the stack, evaluate (and a refused assignment), output and
 * the exit code, as nvim-dap reports them. nvim-dap is a plugin, not a
 * package this project can install: the test runs when CANTRIP_NVIM_DAP
 * names a checkout of it (0.6.0 is the last that supports Debian 12's
 * Neovim 0.7; `git clone https://github.com/mfussenegger/nvim-dap` and
 * `git checkout 0.6.0`) and `nvim` is on PATH, and says why it skips otherwise.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './dap-client.js';

const plugin = process.env['CANTRIP_NVIM_DAP'];
const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const ready = plugin !== undefined && nvim.status === 0;
if (!ready) {
  process.stderr.write(
    `tests/dap/nvim-dap.test.ts skipped: ${plugin === undefined ? 'set CANTRIP_NVIM_DAP to a checkout of nvim-dap' : 'no nvim on PATH'} to run the docs' nvim-dap configuration in Neovim.\n`,
  );
}

const SPELL = 'fun pick(index) {\n  var name = ["gold", "potion"][index];\n  return name;\n}\nprint pick(1);\n';

/** The docs' adapter and configuration (with the clone's launcher for `npx --no cantrip`), and listeners that write what happens. */
function initLua(dir: string): string {
  return `
vim.opt.runtimepath:prepend(${JSON.stringify(plugin)})
local dap = require('dap')
local log = io.open(${JSON.stringify(join(dir, 'log.txt'))}, 'w')
local function say(s) log:write(s .. '\\n'); log:flush() end
dap.adapters.cantrip = { type = 'executable', command = ${JSON.stringify(process.execPath)}, args = { ${JSON.stringify(join(REPO, 'bin', 'cantrip.js'))}, 'dap' } }
dap.configurations.cantrip = {
  { type = 'cantrip', request = 'launch', name = 'Debug this spell file', program = '\${file}' },
}
dap.listeners.after.event_stopped['test'] = function(session, body)
  session:request('stackTrace', { threadId = 1 }, function(_, trace)
    local frame = trace.stackFrames[1]
    say('stopped ' .. body.reason .. ' ' .. frame.name .. ':' .. frame.line)
    session:request('evaluate', { expression = 'index + 1', frameId = frame.id, context = 'repl' }, function(_, result)
      say('evaluate ' .. result.result)
      session:request('evaluate', { expression = 'index = 3', frameId = frame.id, context = 'repl' }, function(err)
        say('refused ' .. tostring(err and err.message))
        dap.continue()
      end)
    end)
  end)
end
dap.listeners.after.event_output['test'] = function(_, body) say('output ' .. body.category .. ' ' .. body.output:gsub('\\n', '')) end
dap.listeners.after.event_exited['test'] = function(_, body) say('exited ' .. body.exitCode) end
dap.listeners.after.event_terminated['test'] = function() vim.defer_fn(function() vim.cmd('qa!') end, 100) end
vim.cmd('edit ' .. ${JSON.stringify(join(dir, 'loot.spell'))})
vim.bo.filetype = 'cantrip'
vim.api.nvim_win_set_cursor(0, { 2, 0 })
dap.toggle_breakpoint()
dap.continue()
vim.defer_fn(function() say('timeout'); vim.cmd('qa!') end, 20000)
`;
}

describe.skipIf(!ready)('the docs\' nvim-dap configuration in Neovim', () => {
  it('stops at the breakpoint, evaluates, refuses an assignment, prints and exits 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cantrip-nvim-dap-'));
    try {
      writeFileSync(join(dir, 'loot.spell'), SPELL);
      writeFileSync(join(dir, 'init.lua'), initLua(dir));
      spawnSync('nvim', ['--headless', '-u', join(dir, 'init.lua')], { cwd: dir, timeout: 30_000 });
      expect(readFileSync(join(dir, 'log.txt'), 'utf8').split('\n').filter(Boolean)).toEqual([
        'stopped breakpoint pick:2',
        'evaluate 2',
        "refused Evaluate is read-only: it does not assign to 'index'.",
        'output stdout potion',
        'exited 0',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
