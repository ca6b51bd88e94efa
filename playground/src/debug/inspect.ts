/**
 * What the debugger panel shows about a paused fiber: the call stack
 * (innermost first) and each frame's local variables, read from the fiber's
 * frames and the compiler's local-variable debug info.
 */
import { displayValue } from '../../../vm/display.js';
import type { Fiber } from '../../../vm/fiber.js';

export interface LocalView {
  readonly name: string;
  readonly value: string;
}

export interface FrameView {
  /** '' for the top-level script. */
  readonly functionName: string;
  /** Index into module.functions. */
  readonly functionIndex: number;
  readonly line: number;
  /** The instruction offset (the current one for the innermost frame, the call for the others). */
  readonly pc: number;
  readonly locals: readonly LocalView[];
}

const MAX_VALUE_TEXT = 120;

function show(value: unknown): string {
  let text: string;
  try {
    text = displayValue(value as Parameters<typeof displayValue>[0]);
  } catch {
    text = '?';
  }
  return text.length > MAX_VALUE_TEXT ? text.slice(0, MAX_VALUE_TEXT - 1) + '…' : text;
}

export function inspectFiber(fiber: Fiber): FrameView[] {
  const frames: FrameView[] = [];
  for (let i = fiber.frameCount - 1; i >= 0; i--) {
    const closure = fiber.frameClosures[i];
    if (!closure || closure.fn.index < 0) continue;
    const fn = closure.fn;
    const innermost = i === fiber.frameCount - 1;
    const saved = fiber.frameIps[i]!;
    const pc = innermost ? saved : Math.max(0, saved - 1);
    const base = fiber.frameBases[i]!;
    const locals: LocalView[] = [];
    const seen = new Set<string>();
    // Innermost scopes last in the table; walk backwards so a shadowing local wins.
    for (const local of [...fn.proto.locals].reverse()) {
      if (pc < local.startPc || pc >= local.endPc || seen.has(local.name) || local.name === '') continue;
      seen.add(local.name);
      locals.unshift({ name: local.name, value: show(fiber.stack[base + local.slot]) });
    }
    frames.push({ functionName: fn.name, functionIndex: fn.index, line: fn.lines[pc] ?? 0, pc, locals });
  }
  return frames;
}
