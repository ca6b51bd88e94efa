/**
 * What the page asks of the toolchain side: host specs for the compiler and
 * the language service, breeds, and running code. The session implements it
 * on top of the VM, the world and the debugger; the app only talks to this.
 */
import type { HostFunctionSpec } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import type { ServiceWorld } from '../../compiler/service/index.js';
import type { MarkerData } from './language/markers.js';

/** Where a run's output goes (the console, the editor markers). */
export interface Reporter {
  print(text: string): void;
  info(text: string): void;
  event(text: string): void;
  runtimeError(text: string, line: number | null): void;
}

export interface PlaygroundBackend {
  hostSpecs(): readonly HostFunctionSpec[];
  defaultBreeds(): string;
  /** The host API and the last valid breeds, for the language service (the same object until either changes). */
  languageWorld(): ServiceWorld;
  /** Validate and, when valid, apply the breeds JSON; the markers say what is wrong and where. */
  loadBreeds(json: string): MarkerData[];
  /** The spells the loaded breeds run every tick (their `tick` slot): the world calls them with (self, dt), so they are not cast by hand. */
  tickSpells(): ReadonlySet<string>;
  setBreakpoints(lines: readonly number[]): void;
  runScript(module: Module): void;
  /** Cast `spell` from the compiled `source` on the live world. */
  cast(module: Module, spell: string, source?: string): void;
}
