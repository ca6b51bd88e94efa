import { expect, it } from 'vitest';
import { runExample } from './embed.js';

it('the embedding example in docs/embedding.md runs as documented', () => {
  const lines: string[] = [];
  runExample((line) => lines.push(line));
  expect(lines).toEqual([
    'BLESS YOU, ARTHUR',
    'BLESS YOU, ARTHUR',
    'cast is suspended',
    'Arthur was blessed 2 times',
    'cast is done',
    'Too loud: shout at most 30 characters.',
    '[line 7] in bless()',
  ]);
});
