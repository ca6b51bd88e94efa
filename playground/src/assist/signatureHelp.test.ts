import { describe, expect, it } from 'vitest';
import { WORLD_HOST_FUNCTIONS } from '../../../runtime/host/host-api.js';
import { openCallAt, signatureHelpAt } from './signatureHelp.js';

/** The hint at the `|` in the text. */
function at(text: string) {
  const offset = text.indexOf('|');
  return signatureHelpAt(text.replace('|', ''), offset, WORLD_HOST_FUNCTIONS);
}

describe('signature help', () => {
  it("shows a host function's signature from the host-API table, on the argument being typed", () => {
    const hint = at('spell s(caster, target) {\n  damage(target, |');
    expect(hint?.label).toMatch(/^damage\(target: entity, amount: number\) -> \w+$/);
    expect(hint?.activeParameter).toBe(1);
    expect(hint?.documentation).toBe(WORLD_HOST_FUNCTIONS.find((h) => h.name === 'damage')!.doc);
    expect(at('damage(|')?.activeParameter).toBe(0);
  });

  it('marks optional parameters and counts arguments past nested calls, lists and strings', () => {
    expect(at('particles("a, b", max(1, 2), [1, 2], |')).toMatchObject({ activeParameter: 3 });
    const withOptional = { name: 'glow', params: [{ name: 'x', type: 'number' as const }, { name: 'colour', type: 'string' as const, optional: true }], returns: 'nil' as const, doc: 'Glows.' };
    expect(signatureHelpAt('glow(1, ', 8, [withOptional])).toMatchObject({ label: 'glow(x: number, colour?: string) -> nil', activeParameter: 1 });
    expect(at('damage(target, max(1, |')).toMatchObject({ label: expect.stringMatching(/^max\(/), activeParameter: 1 });
  });

  it("uses the spell's own functions, and gives nothing outside a call", () => {
    expect(at('fun blast(who, power) {}\nblast(a, |')).toMatchObject({ label: 'blast(who, power)', activeParameter: 1 });
    expect(at('damage(t, 1);\nprint |')).toBeNull();
    expect(at('damage(target;\nprint |')).toBeNull();
    expect(at('if (|')).toBeNull();
    expect(at('fun f(|')).toBeNull();
    expect(at('damage("a, |')).toBeNull();
    expect(at('// damage(|')).toBeNull();
    expect(at('unknownThing(|')).toBeNull();
    expect(at('for (var i = 0; i < max(1, |')).toMatchObject({ activeParameter: 1 });
  });

  it('finds the open call in a method-free way: a method call has no static signature', () => {
    expect(openCallAt('list.push(', 10)).toBeNull();
  });
});
