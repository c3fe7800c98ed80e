/**
 * Child processes of the launcher. Each runs in its own process group (detached) so that stopping it
 * reaches everything it spawned (npm → sh → node → workers), and so that a terminal's Ctrl-C reaches
 * only the launcher, which then stops the children in order: SIGTERM to the group, a bounded wait,
 * then SIGKILL to the group.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export interface ServiceOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Print the child's output live, each line prefixed with the service name (default true). */
  echo?: boolean;
  /** How long SIGTERM may take before the group is SIGKILLed. */
  stopTimeoutMs?: number;
}

export class Service {
  readonly name: string;
  private child: ChildProcess | null = null;
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
  private stopping = false;
  /** The last lines of output, shown when the service fails. */
  readonly tail: string[] = [];

  constructor(private readonly opts: ServiceOptions) {
    this.name = opts.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process; `onExit` fires when it ends without having been asked to stop. */
  start(onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void): void {
    const { command, args, cwd, env, name } = this.opts;
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    const label = `${name.padEnd(7)}|`;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on("line", (line) => {
        this.tail.push(line);
        if (this.tail.length > 40) this.tail.shift();
        if (this.opts.echo !== false) process.stdout.write(`${label} ${line}\n`);
      });
    }
    this.exited = new Promise((resolve) => {
      child.on("exit", (code, signal) => {
        resolve({ code, signal });
        if (!this.stopping) onUnexpectedExit?.(code, signal);
      });
      child.on("error", (err) => {
        this.tail.push(String(err));
        resolve({ code: null, signal: null });
        if (!this.stopping) onUnexpectedExit?.(null, null);
      });
    });
  }

  /** Resolves with the exit status once the process has ended. */
  wait(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exited ?? Promise.resolve({ code: null, signal: null });
  }

  /** Stops the whole process group: SIGTERM, bounded wait, SIGKILL. Safe to call twice. */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child?.pid) return;
    const timeout = this.opts.stopTimeoutMs ?? 10_000;
    signalGroup(child.pid, "SIGTERM");
    const ended = await Promise.race([
      this.wait().then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), timeout)),
    ]);
    if (!ended) process.stdout.write(`${this.name} did not stop within ${timeout / 1000}s; killing it\n`);
    // Even when the leader exited, a grandchild may linger in the group: sweep it.
    await killGroup(child.pid, ended ? 2_000 : 0);
  }
}

/** Sends a signal to a process group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to `graceMs` for a process group to vanish, then SIGKILLs what is left. */
export async function killGroup(pgid: number, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  signalGroup(pgid, "SIGKILL");
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command to completion (own process group, output captured); the handle can stop it early. */
export function runToCompletion(opts: ServiceOptions): {
  service: Service;
  done: Promise<{ code: number | null; output: string[] }>;
} {
  const service = new Service({ ...opts });
  service.start();
  const done = service.wait().then(({ code }) => ({ code, output: service.tail }));
  return { service, done };
}

/** How a supervised service is restarted: delays double from `initialDelayMs` up to `maxDelayMs`. */
export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** A run that lasted this long counts as healthy: the next crash starts the backoff over. */
  resetAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
};

/** The wait before restart number `n` (1-based) under `policy`. */
export function restartDelayMs(n: number, policy: RestartPolicy): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, n - 1));
}

/**
 * Keeps a service running: when it exits without having been asked to stop, it is started again
 * after a backoff (1 s, 2 s, 4 s … 30 s; reset after a minute of running), with one log line per
 * crash and per restart, so one crashed process (web, SDK API, worker) never stops the others.
 */
export class Supervisor {
  private restarts = 0;
  private startedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    readonly service: Service,
    private readonly opts: {
      log: (line: string) => void;
      policy?: RestartPolicy;
      /** Called after every (re)start, e.g. to record the new pid. */
      onStart?: () => void;
    },
  ) {}

  /** Restarts so far. */
  get restartCount(): number {
    return this.restarts;
  }

  start(): void {
    if (this.stopped) return;
    this.startedAt = Date.now();
    this.service.start((code, signal) => this.crashed(code, signal));
    this.opts.onStart?.();
  }

  private crashed(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopped) return;
    const policy = this.opts.policy ?? DEFAULT_RESTART_POLICY;
    const ranMs = Date.now() - this.startedAt;
    if (ranMs >= policy.resetAfterMs) this.restarts = 0;
    this.restarts += 1;
    const delay = restartDelayMs(this.restarts, policy);
    const how = signal ? `signal ${signal}` : code === null ? "failed to start" : `exit code ${code}`;
    this.opts.log(
      `${this.service.name} exited unexpectedly (${how}) after ${(ranMs / 1000).toFixed(1)} s; restarting in ${
        delay >= 1000 ? `${delay / 1000} s` : `${delay} ms`
      } (restart ${this.restarts})`,
    );
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      // Whatever the crashed leader left in its process group goes before the new one starts.
      const pid = this.service.pid;
      void (pid ? killGroup(pid, 0) : Promise.resolve()).then(() => {
        if (this.stopped) return;
        this.opts.log(`${this.service.name} restarting`);
        this.start();
      });
    }, delay);
  }

  /** Stops the service and cancels a pending restart. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.service.stop();
  }
}
