/**
 * The processes a scale run starts: each in its own process group, so stopping one stops whatever
 * it spawned; every one is stopped at the end of the run, on failure, on Ctrl-C and on exit.
 */
import { type ChildProcess, spawn } from "node:child_process";

export interface Proc {
  name: string;
  child: ChildProcess;
  /** The last few KB of its stderr (and stdout), for error messages. */
  tail(): string;
}

const running = new Set<Proc>();
let stopping = false;

export function startProc(
  name: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
  log: (line: string) => void,
): Proc {
  const child = spawn(process.execPath, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let tail = "";
  const keep = (c: Buffer) => {
    tail = (tail + c.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const proc: Proc = { name, child, tail: () => tail };
  running.add(proc);
  child.on("exit", (code, signal) => {
    running.delete(proc);
    if (!stopping && !(proc as { expectedExit?: boolean }).expectedExit)
      log(`! ${name} exited during the run (code ${code}, signal ${signal})\n${tail}`);
  });
  return proc;
}

function signalGroup(p: Proc, sig: NodeJS.Signals) {
  try {
    if (p.child.pid) process.kill(-p.child.pid, sig);
  } catch {
    // already gone
  }
}

/** SIGTERM to the process group, SIGKILL after `graceMs`. */
export function stopProc(p: Proc, graceMs = 8_000): Promise<void> {
  (p as { expectedExit?: boolean }).expectedExit = true;
  if (p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => signalGroup(p, "SIGKILL"), graceMs);
    p.child.once("exit", () => {
      clearTimeout(force);
      // Anything the process left behind in its group goes too.
      signalGroup(p, "SIGKILL");
      resolve();
    });
    signalGroup(p, "SIGTERM");
  });
}

export async function stopAllProcs(): Promise<void> {
  stopping = true;
  await Promise.all([...running].map((p) => stopProc(p)));
}

/** Synchronous last resort for process.on("exit"). */
export function killAllProcsNow(): void {
  for (const p of running) signalGroup(p, "SIGKILL");
}

export async function waitHttp(url: string, what: string, p: Proc | null, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (p && p.child.exitCode !== null) throw new Error(`${what} exited before answering:\n${p.tail()}`);
    if (Date.now() > until)
      throw new Error(`${what} did not answer ${url} within ${ms / 1000} s\n${p?.tail() ?? ""}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
