/**
 * The extension's settings and commands as the manifest contributes them are
 * the ones docs/editors.md and the extension's README describe.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const manifest = JSON.parse(read('./package.json')) as {
  contributes: { configuration: { properties: Record<string, { default: unknown }> }; commands: { title: string; category: string }[] };
};
const docs = { 'docs/editors.md': read('../../docs/editors.md'), 'editors/vscode/README.md': read('./README.md') };

describe('the extension\'s documentation', () => {
  for (const [name, text] of Object.entries(docs)) {
    it(`${name} lists every setting with its default, and every command`, () => {
      for (const [setting, { default: value }] of Object.entries(manifest.contributes.configuration.properties)) {
        expect(text).toContain(`| \`${setting}\` | \`${JSON.stringify(value)}\` |`);
      }
      for (const command of manifest.contributes.commands) expect(text).toContain(`${command.category}: ${command.title}`);
    });
  }
});
