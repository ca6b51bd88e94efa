/**
 * A long, realistic spell for the editor benchmark: functions with loops,
 * lists, classes and spells, about `lines` lines in all.
 */

function chunk(i: number): string[] {
  return [
    `// chunk ${i}`,
    `fun helper${i}(a, b) {`,
    `  var total = 0;`,
    `  for (var k = 0; k < a; k += 1) {`,
    `    if (k % 2 == 0) total += k * b; else total -= 1;`,
    `  }`,
    `  var runes = [a, b, total];`,
    `  for (r in runes) total += r;`,
    `  return total + len(runes);`,
    `}`,
    `class Rune${i} {`,
    `  init(power) { this.power = power; }`,
    `  boost() { return this.power * 2 + helper${i}(3, ${i}); }`,
    `}`,
    `spell cast${i}(caster, target) {`,
    `  var rune = Rune${i}(${i});`,
    `  print "rune " + str(rune.boost());`,
    `}`,
    ``,
  ];
}

export function generateSpell(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length + chunk(i).length <= lines; i++) out.push(...chunk(i));
  while (out.length < lines) out.push('// padding');
  return out.join('\n') + '\n';
}
