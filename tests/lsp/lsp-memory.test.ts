/**
 * `cantrip lsp` with many large documents open (needs `npm run build`
 * first), driven by a real JSON-RPC client: the server bounds the analyses
 * it keeps (here a small `analysisCacheMB`, so that a few documents of
 * 100 KB overflow it in seconds; bench/lsp opens fifty of 1 MB with the
 * default), answers requests on documents whose analysis it dropped by
 * analysing them again, stays within a memory bound, and refuses with a
 * message to format a file over the size it formats.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeSpell } from './large-spell.js';
import { LspClient } from './lsp-client.js';

const DOCUMENTS = 6;
const SIZE = 100_000;

let dir: string;
let client: LspClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cantrip-lsp-memory-'));
  client = new LspClient(dir);
  await client.initialize(pathToFileURL(dir).href, {}, { analysisCacheMB: 0.2 });
});

afterAll(async () => {
  await client?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('cantrip lsp with many large documents open', () => {
  it('keeps answering, on documents whose analysis it dropped too, within a memory bound', async () => {
    const uris = Array.from({ length: DOCUMENTS }, (_, i) => pathToFileURL(join(dir, `large${i}.spell`)).href);
    const texts = uris.map((_, i) => largeSpell(SIZE, i));
    for (let i = 0; i < DOCUMENTS; i++) {
      const published = await client.open(uris[i]!, texts[i]!);
      expect(published.diagnostics).toEqual([]);
    }
    // The first documents' analyses are gone (0.2 MB keeps two of these): asked about, they are analysed again.
    const symbols = await client.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri: uris[0] } });
    expect(symbols.length).toBe((texts[0]!.match(/^(fun|class|spell) /gm) ?? []).length);
    expect(symbols[0]!.name).toBe('helper0');
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: uris[1] }, position: { line: 2, character: 5 } });
    expect(hover.contents.value).toContain('helper0');
    // The rest of each 100 KB document's text is kept by the editor's copy alone: far below six analyses' worth.
    expect(client.rssMegabytes()).toBeLessThan(400);
    expect(client.exited).toBeNull();
  }, 120_000);

  it('refuses with a message to format a document over the size it formats', async () => {
    const uri = pathToFileURL(join(dir, 'huge.spell')).href;
    await client.open(uri, 'print 1;\n'.repeat(150_000));
    await expect(client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })).rejects.toThrow(
      'This file is 1.3 MB; the editor formats files up to 1.0 MB (run `cantrip fmt` on it).',
    );
  });
});
