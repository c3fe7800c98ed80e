/**
 * Where a CPU profile of the SDK API server spends its time: self and inclusive time per function,
 * with positions in the production bundle mapped back to source files through its source map, and
 * self time per source file / npm package; with a request count, also µs per request.
 * `npx tsx tooling/bench/wire/profile-summary.ts <file.cpuprofile> [requests] [regex]`: a regex also
 * lists every function whose label matches it (e.g. `ioredis` or `check-budget`), by self and by
 * inclusive time.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Decoded source map: per generated line, sorted [generatedColumn, sourceIndex, sourceLine] triples. */
class SourceMap {
  private readonly lines: number[][][] = [];
  readonly sources: string[];

  constructor(map: { mappings: string; sources: string[] }, mapDir: string) {
    this.sources = map.sources.map((s) => path.relative(process.cwd(), path.resolve(mapDir, s)));
    let src = 0;
    let srcLine = 0;
    for (const line of map.mappings.split(";")) {
      const segs: number[][] = [];
      let genCol = 0;
      for (const seg of line.split(",")) {
        if (!seg) continue;
        const v: number[] = [];
        let shift = 0;
        let value = 0;
        for (const ch of seg) {
          const digit = B64.indexOf(ch);
          value += (digit & 31) << shift;
          if (digit & 32) shift += 5;
          else {
            v.push(value & 1 ? -(value >> 1) : value >> 1);
            value = 0;
            shift = 0;
          }
        }
        genCol += v[0]!;
        if (v.length >= 4) {
          src += v[1]!;
          srcLine += v[2]!;
          segs.push([genCol, src, srcLine]);
        }
      }
      this.lines.push(segs);
    }
  }

  /** 0-based generated line/column → "source:line" (1-based line), or null. */
  lookup(line: number, column: number): string | null {
    const segs = this.lines[line];
    if (!segs || segs.length === 0) return null;
    let lo = 0;
    let hi = segs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segs[mid]![0]! <= column) lo = mid;
      else hi = mid - 1;
    }
    const s = segs[lo]!;
    return `${this.sources[s[1]!]}:${s[2]! + 1}`;
  }
}

const maps = new Map<string, SourceMap | null>();
function mapFor(url: string): SourceMap | null {
  if (!maps.has(url)) {
    let m: SourceMap | null = null;
    try {
      const file = fileURLToPath(url);
      if (existsSync(`${file}.map`))
        m = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")), path.dirname(file));
    } catch {
      m = null;
    }
    maps.set(url, m);
  }
  return maps.get(url)!;
}

function where(cf: CallFrame): string {
  if (!cf.url) return "(native)";
  if (cf.url.startsWith("file://")) {
    const m = mapFor(cf.url);
    const mapped = m?.lookup(cf.lineNumber, cf.columnNumber);
    if (mapped) return mapped;
    return `${path.relative(process.cwd(), fileURLToPath(cf.url))}:${cf.lineNumber + 1}`;
  }
  return `${cf.url}:${cf.lineNumber + 1}`;
}

/** Groups a position into a bucket: an npm package, a workspace source file, or node internals. */
function bucket(pos: string): string {
  const nm = pos.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return `npm:${nm[1]}`;
  if (pos.startsWith("node:")) return "node internals";
  if (pos.startsWith("(")) return pos;
  return pos.replace(/:\d+$/, "");
}

/** A text report of the top functions by self and by inclusive time, and self time per file. */
export function summarizeProfile(
  file: string,
  opts: { top?: number; requests?: number; match?: RegExp } = {},
): string {
  const top = opts.top ?? 25;
  const prof = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = new Map<number, string>();
  for (const n of prof.nodes) {
    const cf = n.callFrame;
    label.set(n.id, `${cf.functionName || "(anonymous)"} ${where(cf)}`);
  }

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const files = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = (prof.timeDeltas[i + 1] ?? prof.timeDeltas[i] ?? 0) / 1000;
    const id = prof.samples[i]!;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    total += dt;
    if (name === "(idle)") {
      idle += dt;
      continue;
    }
    const l = label.get(id)!;
    self.set(l, (self.get(l) ?? 0) + dt);
    const b = bucket(where(node.callFrame));
    files.set(b, (files.get(b) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cl = label.get(cur)!;
      if (seen.has(cl)) continue;
      seen.add(cl);
      inclusive.set(cl, (inclusive.get(cl) ?? 0) + dt);
    }
  }
  const busy = total - idle;
  const perReq = (ms: number) =>
    opts.requests ? `${((ms * 1000) / opts.requests).toFixed(1).padStart(6)} µs/req  ` : "";
  const pct = (ms: number) => `${perReq(ms)}${((100 * ms) / busy).toFixed(1).padStart(5)}%`;
  const list = (m: Map<string, number>, skip: (k: string) => boolean) =>
    [...m.entries()]
      .filter(([k]) => !skip(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, ms]) => `  ${pct(ms)} ${ms.toFixed(0).padStart(7)} ms  ${k}`)
      .join("\n");
  const matching = opts.match
    ? [
        "",
        `self time of functions matching ${opts.match}:`,
        list(self, (k) => !opts.match!.test(k)),
        "",
        `inclusive time of functions matching ${opts.match}:`,
        list(inclusive, (k) => !opts.match!.test(k)),
      ]
    : [];
  return [
    `CPU profile ${path.relative(process.cwd(), file)}: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy` +
      (opts.requests ? `, ${opts.requests} requests (${perReq(busy).trim()} busy)` : "") +
      " (percentages of busy time)",
    "",
    "self time by file / package:",
    list(files, () => false),
    "",
    "self time by function:",
    list(self, () => false),
    "",
    "inclusive time by function (workspace code):",
    list(inclusive, (k) => !/(^|\s)(packages|apps|tooling)\//.test(k)),
    ...matching,
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: profile-summary.ts <file.cpuprofile>\n");
    process.exit(2);
  }
  const requests = Number(process.argv[3]) || undefined;
  const match = process.argv[4] ? new RegExp(process.argv[4]) : undefined;
  process.stdout.write(`${summarizeProfile(file, { requests, match, top: match ? 40 : undefined })}\n`);
}
