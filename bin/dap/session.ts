/**
 * `cantrip dap`'s side of the Debug Adapter Protocol, on @vscode/debugadapter:
 * each request of the editor becomes a call on the program being debugged
 * (debug-run.ts), each thing that happens to it an event.
 *
 * The order of a session: initialize → launch (the program is read and
 * compiled; `initialized` is sent once it is, so the editor's breakpoints
 * land on its lines) → setBreakpoints … → configurationDone (it starts) →
 * stopped / output / continued … → exited + terminated → disconnect.
 *
 * A mistake in the launch configuration or a file that cannot be read is
 * the launch's error (the editor shows it); a program that does not compile
 * is the program's output, linked to its lines, and exit code 65 — as
 * `cantrip run` would say. Nothing a user can do shows a JavaScript stack.
 */
import { basename } from 'node:path';
import {
  Breakpoint,
  BreakpointEvent,
  DebugSession,
  ErrorDestination,
  ExitedEvent,
  InitializedEvent,
  OutputEvent,
  Scope,
  Source,
  StackFrame,
  StoppedEvent,
  TerminatedEvent,
  Thread,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { World } from '../../runtime/world/world.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { DebugRun, type RunListener } from './debug-run.js';
import { evaluate } from './evaluate.js';
import { readLaunchArguments, type LaunchArguments } from './launch-config.js';
import { buildProgram, ProgramFailure, type ProgramOutput } from './program.js';
import { VariableStore } from './variables.js';

/** The code @vscode/debugadapter answers with when a request handler throws. */
const UNCAUGHT_IN_HANDLER = 1104;

/** The one thread the editor sees: the program runs on the adapter's thread, one fiber shown at a time. */
const THREAD_ID = 1;

/** Breakpoints asked for before the program was loaded, applied once it is. */
interface WaitingBreakpoints {
  readonly lines: readonly number[];
  readonly ids: readonly number[];
}

export class CantripDebugSession extends DebugSession {
  private run: DebugRun | null = null;
  private readonly variables = new VariableStore(
    () => this.world,
    () => this.entityProperties,
  );
  private entityProperties: ReadonlySet<string> = new Set();
  private world: World | null = null;
  private configurationDone = false;
  private started = false;
  private nextBreakpointId = 1;
  private readonly waitingBreakpoints = new Map<string, WaitingBreakpoints>();
  /** The editor disconnected: the session ends (see shutdown). */
  private disconnected = false;

  constructor(private readonly io: CliIO) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  /**
   * The library answers a request whose handler threw with code 1104 and the
   * JavaScript stack as the message: the editor gets one clean sentence
   * instead, and the stack goes to stderr (the editor's log of the adapter).
   */
  protected override sendErrorResponse(
    response: DebugProtocol.Response,
    codeOrMessage: number | DebugProtocol.Message,
    format?: string,
    variables?: Record<string, string>,
    dest?: ErrorDestination,
  ): void {
    if (codeOrMessage !== UNCAUGHT_IN_HANDLER) return super.sendErrorResponse(response, codeOrMessage, format, variables, dest);
    process.stderr.write(`cantrip dap: ${response.command}: ${variables?.['_stack'] ?? variables?.['_exception'] ?? 'unknown error'}\n`);
    this.fail(response, `Internal error in cantrip dap (${response.command}): ${variables?.['_exception'] ?? 'unknown error'}`);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      ...response.body,
      supportsConfigurationDoneRequest: true,
      supportsEvaluateForHovers: true,
      supportsTerminateRequest: true,
      supportsSetVariable: false,
      supportsStepBack: false,
      supportsRestartRequest: false,
    };
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: DebugProtocol.LaunchRequestArguments): void {
    this.launch(response, args as LaunchArguments).catch((error: unknown) => {
      process.stderr.write(`cantrip dap: launch: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      this.fail(response, `Internal error in cantrip dap (launch): ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async launch(response: DebugProtocol.LaunchResponse, args: LaunchArguments): Promise<void> {
    if (this.run !== null) return this.fail(response, 'This session has launched its program already: start another session.');
    const plan = readLaunchArguments(args);
    if ('problem' in plan) return this.fail(response, plan.problem);
    let program;
    try {
      program = await buildProgram(plan, this.io, this.programOutput());
    } catch (error) {
      if (!(error instanceof ProgramFailure)) throw error;
      if (error.exitCode !== EXIT.dataError) return this.fail(response, error.message);
      // The program is wrong, not the launch: its errors are its output, linked to their lines, and it exits 65.
      this.sendResponse(response);
      for (const m of error.located) this.output('stderr', m.text, m.path, m.line);
      if (error.located.length === 0) this.output('stderr', `cantrip: ${error.message}`);
      return this.end(error.exitCode);
    }
    this.world = program.world;
    this.entityProperties = program.entityProperties;
    this.run = new DebugRun(program, plan, this.runListener());
    for (const [path, waiting] of this.waitingBreakpoints) {
      this.run.setBreakpoints(path, waiting.lines).forEach((place, i) => {
        const breakpoint: DebugProtocol.Breakpoint = { ...this.breakpoint(place.verified, place.line, path, place.message), id: waiting.ids[i]! };
        this.sendEvent(new BreakpointEvent('changed', breakpoint));
      });
    }
    this.waitingBreakpoints.clear();
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
    this.startWhenReady();
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.configurationDone = true;
    this.sendResponse(response);
    this.startWhenReady();
  }

  private startWhenReady(): void {
    if (this.started || !this.configurationDone || this.run === null) return;
    this.started = true;
    this.run.start();
  }

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const path = args.source.path === undefined ? null : this.convertClientPathToDebugger(args.source.path);
    const lines = (args.breakpoints ?? args.lines?.map((line) => ({ line })) ?? []).map((b) => this.convertClientLineToDebugger(b.line));
    if (path === null) {
      response.body = { breakpoints: lines.map((line) => this.breakpoint(false, line, null, 'Breakpoints need a file on disk.')) };
    } else if (this.run === null) {
      const breakpoints = lines.map((line) => this.breakpoint(false, line, path, 'Not loaded yet: set once the program is read.'));
      this.waitingBreakpoints.set(path, { lines, ids: breakpoints.map((b) => b.id!) });
      response.body = { breakpoints };
    } else {
      response.body = { breakpoints: this.run.setBreakpoints(path, lines).map((p) => this.breakpoint(p.verified, p.line, path, p.message)) };
    }
    this.sendResponse(response);
  }

  private breakpoint(verified: boolean, line: number, path: string | null, message?: string): DebugProtocol.Breakpoint {
    const breakpoint: DebugProtocol.Breakpoint = new Breakpoint(verified, this.convertDebuggerLineToClient(line), undefined, path === null ? undefined : this.source(path));
    breakpoint.id = this.nextBreakpointId++;
    if (message !== undefined) breakpoint.message = message;
    return breakpoint;
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [new Thread(THREAD_ID, this.run?.threadName ?? 'cantrip')] };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const stack = this.run?.stack() ?? [];
    const start = args.startFrame ?? 0;
    const end = args.levels ? start + args.levels : stack.length;
    const frames = stack.slice(start, end).map(({ frame, path }, i) => {
      const name = frame.functionName === '' ? '<script>' : frame.functionName;
      // The VM knows lines, not columns: each frame is at the start of its line.
      return new StackFrame(start + i + 1, name, this.source(path), this.convertDebuggerLineToClient(frame.line), this.convertDebuggerColumnToClient(1));
    });
    response.body = { stackFrames: frames, totalFrames: stack.length };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const values = this.run?.frameValues(args.frameId - 1) ?? null;
    const scopes: DebugProtocol.Scope[] = [];
    if (values !== null) {
      scopes.push(new Scope('Locals', this.variables.scope(values.locals), false));
      if (values.upvalues.length > 0) scopes.push(new Scope('Captured', this.variables.scope(values.upvalues), false));
      scopes.push(new Scope('Globals', this.variables.scope(this.run!.globals()), true));
    }
    response.body = { scopes };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    response.body = { variables: this.variables.variables(args.variablesReference, args.filter, args.start ?? 0, args.count ?? 0) };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.resumeAfter(response, 'run');
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.resumeAfter(response, 'over');
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.resumeAfter(response, 'into');
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.resumeAfter(response, 'out');
  }

  /** Answer first, then run: the stop that follows is an event after the response, as editors expect. */
  private resumeAfter(response: DebugProtocol.Response, mode: 'run' | 'over' | 'into' | 'out'): void {
    const run = this.run;
    if (run === null || run.hasEnded) return this.fail(response, 'The program is not running.');
    if (run.isRunning) return this.fail(response, 'The program is running: pause it first.');
    this.variables.reset();
    this.sendResponse(response);
    run.resume(mode);
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.run?.pause();
    this.sendResponse(response);
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const run = this.run;
    if (run === null || run.hasEnded) return this.fail(response, 'Nothing to evaluate in: the program is not running.');
    if (run.isRunning) return this.fail(response, 'The program is running: evaluate works while it is stopped.');
    const scope = run.evaluationScope(args.frameId === undefined ? 0 : args.frameId - 1);
    if (scope === null) return this.fail(response, 'No frame to evaluate in (the program is between world ticks).');
    const outcome = evaluate(args.expression, scope);
    if (!outcome.ok) return this.fail(response, outcome.message);
    const variable = this.variables.variable('', outcome.value);
    response.body = { result: variable.value, type: variable.type, variablesReference: variable.variablesReference, indexedVariables: variable.indexedVariables, namedVariables: variable.namedVariables };
    this.sendResponse(response);
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.sendResponse(response);
    if (this.run !== null && !this.run.hasEnded) {
      this.run.terminate();
      this.sendEvent(new TerminatedEvent());
    }
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments): void {
    this.run?.terminate();
    this.disconnected = true;
    super.disconnectRequest(response, args);
  }

  /**
   * The library ends the process (100 ms later) on a disconnect and on every
   * 'error' event — a frame that is not JSON included, which would end the
   * session for one bad message. Only a disconnect ends it here; a bad frame
   * is skipped, and a broken stream ends the session in bin/commands/dap.ts.
   */
  override shutdown(): void {
    if (this.disconnected) super.shutdown();
  }

  private runListener(): RunListener {
    return {
      stopped: (reason, description) => {
        this.variables.reset();
        const event = new StoppedEvent(reason, THREAD_ID) as DebugProtocol.StoppedEvent;
        event.body.description = description;
        event.body.allThreadsStopped = true;
        this.sendEvent(event);
      },
      finished: (exitCode) => this.end(exitCode),
      error: (text, path, line) => this.output('stderr', text, path ?? undefined, line ?? undefined),
    };
  }

  private programOutput(): ProgramOutput {
    return {
      print: (text) => this.output('stdout', text),
      event: (text, isError) => this.output(isError ? 'stderr' : 'console', text),
    };
  }

  private end(exitCode: number): void {
    this.sendEvent(new ExitedEvent(exitCode));
    this.sendEvent(new TerminatedEvent());
  }

  private output(category: 'stdout' | 'stderr' | 'console', text: string, path?: string, line?: number): void {
    const event = new OutputEvent(`${text}\n`, category) as DebugProtocol.OutputEvent;
    if (path !== undefined && line !== undefined) {
      event.body.source = this.source(path);
      event.body.line = this.convertDebuggerLineToClient(line);
    }
    this.sendEvent(event);
  }

  private source(path: string): Source {
    return new Source(basename(path), this.convertDebuggerPathToClient(path));
  }

  private fail(response: DebugProtocol.Response, message: string): void {
    // The library fills `{_name}` placeholders in the format; a message has none (names not starting with '_' are left as written).
    this.sendErrorResponse(response, { id: 1, format: message, showUser: true });
  }
}
