/**
 * A large, realistic spell file for measuring compile throughput: repeated
 * units of classes with inheritance, functions with loops and lists,
 * closures and spell declarations calling the core host functions, so every
 * compiler phase (lexing, parsing, resolving, emitting) gets real work.
 */

function unit(k: number): string {
  return `// ---- unit ${k}
class Unit${k} {
  init(hp, armor) {
    this.hp = hp;
    this.armor = armor;
    this.buffs = [];
  }

  takeHit(amount) {
    var dealt = max(0, amount - this.armor);
    this.hp = this.hp - dealt;
    if (this.hp < 0) this.hp = 0;
    return dealt;
  }

  isAlive() { return this.hp > 0; }
}

class Elite${k} < Unit${k} {
  init(hp) {
    super.init(hp * 2, 3);
    this.rage = 0;
  }

  takeHit(amount) {
    this.rage += 1;
    return super.takeHit(amount / 2);
  }
}

fun scale${k}(values, factor) {
  var out = [];
  for (var i = 0; i < len(values); i += 1) {
    out.append(floor(values[i] * factor) % 97);
  }
  return out;
}

fun makeCounter${k}() {
  var count = 0;
  fun next() {
    count = count + 1;
    return count;
  }
  return next;
}

spell strike${k}(caster, target) {
  var total = 0;
  var hits = scale${k}([1, 2, 3, ${k % 10}], 1.5);
  for (h in hits) {
    if (h > 2 and total < 100) {
      total += h;
    } else if (h == 0 or total > 500) {
      total -= 1;
    }
  }
  while (total > 10) total = total / 2;
  var elite = Elite${k}(40 + ${k % 7});
  elite.takeHit(total);
  print "strike${k} " + str(total) + " " + str(elite.isAlive());
  return abs(total - sqrt(16));
}
`;
}

function countLines(text: string): number {
  return text.split('\n').length - 1;
}

/** Exactly `lines` lines: whole units, topped up with one-line global declarations. */
export function generateSpellSource(lines: number): string {
  const parts: string[] = [];
  let total = 0;
  for (let k = 0; ; k++) {
    const next = unit(k);
    const size = countLines(next);
    if (total + size > lines) break;
    parts.push(next);
    total += size;
  }
  for (let g = 0; total < lines; g++, total++) parts.push(`var filler${g} = ${g} * 2 + 1;\n`);
  return parts.join('');
}
