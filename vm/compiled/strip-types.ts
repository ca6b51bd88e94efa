/**
 * The instruction bodies are TypeScript (the generated interpreter is
 * type-checked); the compiled tier runs them through `new Function`, so it
 * takes out the little type syntax they use: `let x: T`, `x as T` and the
 * non-null `x!`. A test strips every body and parses the result.
 */

/** Type names the bodies annotate with. */
const TYPE = '(?:Value|ObjList|string|number|boolean)';

export function stripTypes(source: string): string {
  return (
    source
      // `let t0: Value, localSlot = 0;` and `let text: string;`
      .replace(new RegExp(`\\b(let\\s+[^;=]*?)\\b(\\w+)\\s*:\\s*${TYPE}\\b`, 'g'), (match) =>
        match.replace(new RegExp(`(\\w+)\\s*:\\s*${TYPE}\\b`, 'g'), '$1'),
      )
      .replace(new RegExp(`,\\s*(\\w+)\\s*:\\s*${TYPE}\\b`, 'g'), ', $1')
      // `x as string`, `t0 as Value`
      .replace(new RegExp(`\\s+as\\s+${TYPE}\\b`, 'g'), '')
      // `stack[sp - 1]!`, `fn.compiled!(` — a `!` right after an operand, not `!=`
      .replace(/([\w\])])!(?!=)/g, '$1')
  );
}
