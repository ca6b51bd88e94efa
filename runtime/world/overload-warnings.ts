/**
 * The world's message to the game's developers when a step went over its
 * caps (`maxEventsPerStep`, `maxHandlerCastsPerStep`) and dropped events or
 * onEnter / onLeave casts. The `overload` event says the same to listeners,
 * but a game that does not watch for it loses handler casts silently (11,868
 * of 15,964 on the first step of a 10,000-entity world at the old sizing),
 * so it also goes to the world's logger (console.warn unless the game passes
 * its own). A world overloaded every step would print every step: after one
 * message the next waits REPEAT_STEPS steps and counts the steps between.
 */

/** Where a world writes warnings meant for the game's developers (WorldOptions.logger). */
export type WorldLogger = (message: string) => void;

export const REPEAT_STEPS = 100;

export interface OverloadCaps {
  readonly maxEventsPerStep: number;
  readonly maxHandlerCastsPerStep: number;
}

export class OverloadWarnings {
  private lastMessageStep = -Infinity;
  private quietOverloads = 0;

  constructor(
    private readonly log: WorldLogger,
    private readonly caps: OverloadCaps,
  ) {}

  /** A step (`step`: its number) dropped these: tell the logger, unless it was told less than REPEAT_STEPS steps ago. */
  report(step: number, droppedEvents: number, droppedCasts: number): void {
    if (step - this.lastMessageStep < REPEAT_STEPS) {
      this.quietOverloads++;
      return;
    }
    this.log(overloadMessage(step, droppedEvents, droppedCasts, this.caps, this.quietOverloads));
    this.lastMessageStep = step;
    this.quietOverloads = 0;
  }
}

export function overloadMessage(step: number, droppedEvents: number, droppedCasts: number, caps: OverloadCaps, quietOverloads = 0): string {
  const dropped: string[] = [];
  if (droppedCasts > 0) {
    dropped.push(`${droppedCasts} onEnter/onLeave handler cast${droppedCasts === 1 ? '' : 's'} (maxHandlerCastsPerStep is ${caps.maxHandlerCastsPerStep})`);
  }
  if (droppedEvents > 0) {
    dropped.push(`${droppedEvents} effect event${droppedEvents === 1 ? '' : 's'} (maxEventsPerStep is ${caps.maxEventsPerStep})`);
  }
  const since = quietOverloads > 0 ? ` ${quietOverloads} other step${quietOverloads === 1 ? ' was' : 's were'} over the caps since the last message.` : '';
  return (
    `Cantrip world, step ${step}: over the per-step caps, dropped ${dropped.join(' and ')}.${since} ` +
    'Raise the World option, or spread the burst (a mass spawn) over several steps: docs/runtime.md, "Sizing the per-step caps".'
  );
}
