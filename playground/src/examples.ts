/**
 * The examples menu: every spell in the repository's spells/ folder, bundled
 * at build time, so the playground shows the same files the tests compile.
 */

const spellFiles = import.meta.glob<string>('../../spells/**/*.spell', { query: '?raw', import: 'default', eager: true });

export interface Example {
  readonly name: string;
  readonly source: string;
}

/** Shown when spells/ has nothing (or before it does): the design's fireball. */
export const FALLBACK_EXAMPLE: Example = {
  name: 'fireball',
  source: `// Select a caster and a target on the map, then press Cast (Ctrl/Cmd+Enter).
spell fireball(caster, target) {
  var dmg = 10 + caster.wisdom / 2;
  for (e in nearby(target, 3)) {
    if (e != caster) damage(e, dmg);
  }
  particles("flame", target.x, target.y, 20);
  print "fireball hits for " + str(dmg);
  wait(0.5);
  sound("boom");
}
`,
};

function exampleName(path: string): string {
  return path.replace(/^.*spells\//, '').replace(/\.spell$/, '');
}

export function loadExamples(): Example[] {
  const examples = Object.entries(spellFiles)
    .map(([path, source]) => ({ name: exampleName(path), source }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return examples.length > 0 ? examples : [FALLBACK_EXAMPLE];
}

/** The example to open on a first visit: fireball when there is one. */
export function defaultExample(examples: readonly Example[]): Example {
  return examples.find((e) => e.name === 'fireball') ?? examples.find((e) => e.name.endsWith('fireball')) ?? examples[0] ?? FALLBACK_EXAMPLE;
}

/** The example whose text `source` is, unchanged, if any. */
export function exampleWithSource(examples: readonly Example[], source: string): Example | undefined {
  return examples.find((e) => e.source.length === source.length && e.source === source);
}

/** Text worth keeping: not empty and not an example left as it was. */
export function isUserWork(examples: readonly Example[], source: string): boolean {
  return source.trim() !== '' && exampleWithSource(examples, source) === undefined;
}
