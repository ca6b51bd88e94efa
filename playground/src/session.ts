/**
 * The toolchain side of the page: runs scripts and casts on the shared VM,
 * reports output and errors. (The world and the debugger plug in here.)
 */
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import type { HostFunction, HostFunctionSpec } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import type { Fiber } from '../../vm/fiber.js';
import type { PlaygroundBackend, Reporter } from './backend.js';
import { PLAYGROUND_BUDGETS, createVm, describeFailure } from './engine.js';
import type { BreedSummary, PropertyDoc } from './language/completions.js';
import type { MarkerData } from './language/markers.js';
import type { BreedRegistry } from '../../runtime/breeds.js';
import { DEFAULT_BREEDS_JSON, ENTITY_PROPERTIES, loadBreedsJson, summarizeBreed } from './breedsData.js';

const SILENT: Reporter = { print() {}, info() {}, event() {}, runtimeError() {} };

export class PlaygroundSession implements PlaygroundBackend {
  private reporter: Reporter = SILENT;
  private readonly hosts: readonly HostFunction[] = CORE_HOST_FUNCTIONS;
  private breeds: BreedRegistry | null = null;

  attach(reporter: Reporter): void {
    this.reporter = reporter;
  }

  hostSpecs(): readonly HostFunctionSpec[] {
    return this.hosts;
  }

  defaultBreeds(): string {
    return DEFAULT_BREEDS_JSON;
  }

  breedSummaries(): readonly BreedSummary[] {
    return this.breeds ? this.breeds.breeds.filter((b) => !b.abstract).map(summarizeBreed) : [];
  }

  entityProperties(): readonly PropertyDoc[] {
    return ENTITY_PROPERTIES;
  }

  loadBreeds(json: string): MarkerData[] {
    const loaded = loadBreedsJson(json);
    if (!loaded.ok) return loaded.markers;
    this.breeds = loaded.registry;
    return [];
  }

  setBreakpoints(_lines: readonly number[]): void {}

  runScript(module: Module): void {
    const vm = createVm(module, this.hosts, (text) => this.reporter.print(text));
    if (!('runScript' in vm)) {
      this.reporter.runtimeError(vm.text, vm.line);
      return;
    }
    this.report(vm.runScript(PLAYGROUND_BUDGETS), 'script');
  }

  cast(module: Module, spell: string): void {
    const vm = createVm(module, this.hosts, (text) => this.reporter.print(text));
    if (!('cast' in vm)) {
      this.reporter.runtimeError(vm.text, vm.line);
      return;
    }
    this.report(vm.cast(spell, [null, null], PLAYGROUND_BUDGETS), spell);
  }

  private report(fiber: Fiber, what: string): void {
    if (fiber.state === 'failed' && fiber.error) {
      const failure = describeFailure(fiber.error);
      this.reporter.runtimeError(failure.text, failure.line);
    } else if (fiber.state === 'done') {
      this.reporter.info(`${what} finished.`);
    }
  }
}
