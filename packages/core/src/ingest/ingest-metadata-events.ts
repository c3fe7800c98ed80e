import type { Pool } from "pg";
import type { Logger } from "pino";
import { nanosToDecimalString } from "../budgets/money";
import { copyTags, tagsProblem } from "../validation/text-rules";
import { type BinaryElement, pgBinaryArray } from "./pg-binary-array";
import { admitTagSets, type KnownTagValues } from "./tag-policy";

/** A timestamp at µs precision (parsed by the transport; see packages/wire). */
export interface EventInstant {
  micros: number;
  /** Canonical UTC text with 6 fractional digits. */
  iso: string;
  date: Date;
}

/** One structurally valid metadata event, in the SDK's own field names (spec §3). */
export interface IngestEvent {
  model: string;
  provider: string;
  modality: string;
  input_tokens: number;
  output_tokens: number;
  token_details?: Record<string, number | boolean> | null;
  media_usage?: Record<string, unknown> | null;
  latency_ms: number;
  status: "success" | "error" | "budget_denied";
  is_model_fallback: boolean;
  is_provider_fallback: boolean;
  requested_provider?: string | null;
  requested_model?: string | null;
  failover_reason?: string | null;
  failover_error_class?: string | null;
  attempt_index: number;
  call_id: string;
  possibly_succeeded?: boolean | null;
  service_tier?: string | null;
  sdk_instance_id: string;
  timestamp: EventInstant;
  agent_run_id?: string | null;
  parent_agent_run_id?: string | null;
  agent_run_name?: string | null;
  provider_region?: string | null;
  tags?: unknown;
  lease_id?: string | null;
  deny_source?: string | null;
  deny_reason?: string | null;
  denied_by_period?: string | null;
  estimated_output_bound?: number | null;
  velocity_flags?: string[] | null;
  receipt_aggregate_count?: number | null;
  receipt_pricing_input_tokens?: number | null;
}

export type RejectionCode =
  | "unknown_model"
  | "unknown_service_tier"
  | "invalid_tags"
  | "tag_cardinality_exceeded"
  | "unsupported_modality";

export interface IngestResult {
  ingested: number;
  rejected: { index: number; code: RejectionCode; model: string; message: string }[];
  duplicates: { index: number; probe: "call_id" | "legacy_key"; call_id: string }[];
}

/** Cost of an event in nano-dollars; null = the catalogue cannot price it (never $0). */
export interface EventPricing {
  /** What the served call cost (success/error events). */
  actualCostNanos(event: IngestEvent): bigint | null;
  /** What a denied call would have cost had it run (budget_denied events). */
  avoidedCostNanos(event: IngestEvent): bigint | null;
}

/** What the budget counters learn about newly stored events (shape of budgets' IngestedSpendItem). */
export interface EventSpendItem {
  callId: string;
  attemptIndex: number;
  timestamp: Date;
  costNanos: bigint | null;
  agentRunId: string;
  tags?: Record<string, string> | null;
  status: string;
}

export interface IngestDeps {
  pg: Pool;
  log: Logger;
  knownTags: KnownTagValues;
  pricing: EventPricing;
  /** Moves the live budget counters; failures are logged (counters rebuild from Postgres). */
  recordSpend?: (projectId: string, items: EventSpendItem[]) => Promise<void>;
}

const MODALITIES = new Set(["text", "image", "audio", "video", "embedding"]);
/** Service tiers the price catalogue understands (confirm's enum plus the batch lane). */
export const KNOWN_SERVICE_TIERS = new Set([
  "auto",
  "default",
  "flex",
  "scale",
  "priority",
  "standard",
  "optimized",
  "batch",
]);
// A model id is plausible when it is printable, starts with a letter or digit and has no spaces:
// covers dated snapshots, "org/model", "llama3:8b", Bedrock ids and ARNs.
const PLAUSIBLE_MODEL_RE = /^[A-Za-z0-9][\x21-\x7e]*$/;

/** The run an event belongs to: its own, or the SDK instance's daily auto run (UTC date). */
export function runIdOf(e: Pick<IngestEvent, "agent_run_id" | "sdk_instance_id" | "timestamp">): string {
  if (e.agent_run_id) return e.agent_run_id;
  return `_auto-${e.sdk_instance_id}-${e.timestamp.iso.slice(0, 10)}`;
}

const INT32_MAX = 2_147_483_647;

/** The first `n` characters (code points, so a surrogate pair is never cut in half). */
function firstChars(s: string, n: number): string {
  if (s.length <= n) return s;
  return Array.from(s).slice(0, n).join("");
}

/**
 * Ingests one SDK batch (spec §3): every event lands in exactly one of `ingested`, `rejected`
 * (closed codes) or `duplicates` (by (project, call_id, attempt_index), then by the legacy
 * (timestamp instant, sdk_instance_id)), so one bad event never costs its siblings. Against stored
 * events the call key also carries the timestamp (the table is partitioned by it): an SDK replays
 * an event with its original timestamp, so a replay is caught wherever its partition is. Stored events
 * are durable in Postgres — one multi-row INSERT … ON CONFLICT DO NOTHING that also upserts their
 * agent runs, shared with the project's other batches that arrived meanwhile (insertCoalesced) —
 * before this returns; the live budget counters are moved afterwards.
 */
export async function ingestMetadataEvents(
  deps: IngestDeps,
  input: { projectId: string; organizationId: string; events: IngestEvent[] },
): Promise<IngestResult> {
  const { events, projectId } = input;
  const result: IngestResult = { ingested: 0, rejected: [], duplicates: [] };
  const reject = (index: number, code: RejectionCode, message: string) =>
    result.rejected.push({ index, code, model: firstChars(events[index]!.model, 50), message });

  // 1. Per-event policy (no I/O).
  const candidates: number[] = [];
  const tagSets: (Record<string, string> | null)[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (!PLAUSIBLE_MODEL_RE.test(e.model)) {
      reject(i, "unknown_model", "model is not a recognisable model id");
      continue;
    }
    if (!MODALITIES.has(e.modality)) {
      reject(i, "unsupported_modality", `modality must be one of ${[...MODALITIES].join(", ")}`);
      continue;
    }
    if (e.service_tier != null && !KNOWN_SERVICE_TIERS.has(e.service_tier)) {
      reject(
        i,
        "unknown_service_tier",
        `unknown service tier; known: ${[...KNOWN_SERVICE_TIERS].join(", ")}`,
      );
      continue;
    }
    if (e.tags != null) {
      const problem = tagsProblem(e.tags);
      if (problem) {
        reject(i, "invalid_tags", problem);
        continue;
      }
    }
    candidates.push(i);
  }

  // 2. Duplicates inside the batch: the first occurrence wins.
  const byCall = new Set<string>();
  const byLegacy = new Set<string>();
  const fresh: number[] = [];
  for (const i of candidates) {
    const e = events[i]!;
    const callKey = `${e.call_id}/${e.attempt_index}`;
    const legacyKey = `${e.timestamp.micros}/${e.sdk_instance_id}`;
    if (byCall.has(callKey)) {
      result.duplicates.push({ index: i, probe: "call_id", call_id: e.call_id });
    } else if (byLegacy.has(legacyKey)) {
      result.duplicates.push({ index: i, probe: "legacy_key", call_id: e.call_id });
    } else {
      byCall.add(callKey);
      byLegacy.add(legacyKey);
      fresh.push(i);
      // A null-prototype copy: a `constructor` or `__proto__` tag is an ordinary key.
      tagSets.push(
        e.tags != null && Object.keys(e.tags as object).length > 0
          ? copyTags(e.tags as Record<string, string>)
          : null,
      );
    }
  }

  // 3. Account-wide tag cardinality.
  const admitted = tagSets.some((t) => t !== null)
    ? await admitTagSets({ pg: deps.pg, known: deps.knownTags }, input.organizationId, tagSets)
    : tagSets.map(() => true);
  const rows: number[] = [];
  fresh.forEach((i, k) => {
    if (admitted[k]) rows.push(i);
    else reject(i, "tag_cardinality_exceeded", "the account has reached its tag key or tag value limit");
  });

  // 4. Durable insert of everything left, deduplicated against what is already stored.
  if (rows.length > 0) {
    const cost: (bigint | null)[] = [];
    const avoided: (bigint | null)[] = [];
    for (const i of rows) {
      const e = events[i]!;
      if (e.status === "budget_denied") {
        cost.push(null);
        avoided.push(deps.pricing.avoidedCostNanos(e));
      } else {
        cost.push(deps.pricing.actualCostNanos(e));
        avoided.push(null);
      }
    }
    const inserted = await insertCoalesced(deps.pg, projectId, { events, rows, cost, avoided });
    const storedItems: EventSpendItem[] = [];
    const notStored: number[] = [];
    rows.forEach((i, k) => {
      const e = events[i]!;
      if (inserted.has(`${e.call_id}/${e.attempt_index}`)) {
        result.ingested++;
        storedItems.push({
          callId: e.call_id,
          attemptIndex: e.attempt_index,
          timestamp: e.timestamp.date,
          costNanos: cost[k] ?? null,
          agentRunId: runIdOf(e),
          tags: e.tags != null ? copyTags(e.tags as Record<string, string>) : null,
          status: e.status,
        });
      } else {
        notStored.push(i);
      }
    });
    if (notStored.length > 0) {
      const byCallId = await existingCallKeys(
        deps.pg,
        projectId,
        notStored.map((i) => events[i]!),
      );
      for (const i of notStored) {
        const e = events[i]!;
        result.duplicates.push({
          index: i,
          probe: byCallId.has(`${e.call_id}/${e.attempt_index}`) ? "call_id" : "legacy_key",
          call_id: e.call_id,
        });
      }
    }
    if (storedItems.length > 0 && deps.recordSpend) {
      try {
        await deps.recordSpend(projectId, storedItems);
      } catch (err) {
        // The events are durable; the counters are a cache that is rebuilt from them.
        deps.log.warn({ err, projectId }, "ingested events stored but budget counters not moved");
      }
    }
  }

  result.rejected.sort((a, b) => a.index - b.index);
  result.duplicates.sort((a, b) => a.index - b.index);
  return result;
}

export const INGEST_COLUMNS = [
  ["call_id", "uuid"],
  ["attempt_index", "int4"],
  ["timestamp", "timestamptz"],
  ["sdk_instance_id", "text"],
  ["model", "text"],
  ["provider", "text"],
  ["modality", "text"],
  ["status", "text"],
  ["input_tokens", "int4"],
  ["output_tokens", "int4"],
  ["token_details", "jsonb"],
  ["media_usage", "jsonb"],
  ["latency_ms", "int4"],
  ["is_model_fallback", "bool"],
  ["is_provider_fallback", "bool"],
  ["requested_provider", "text"],
  ["requested_model", "text"],
  ["failover_reason", "text"],
  ["failover_error_class", "text"],
  ["possibly_succeeded", "bool"],
  ["service_tier", "text"],
  ["agent_run_id", "text"],
  ["parent_agent_run_id", "text"],
  ["agent_run_name", "text"],
  ["provider_region", "text"],
  ["tags", "jsonb"],
  ["lease_id", "text"],
  ["deny_source", "text"],
  ["deny_reason", "text"],
  ["denied_by_period", "text"],
  ["estimated_output_bound", "int4"],
  ["velocity_flags", "text"], // a Postgres array literal per row, cast below
  ["receipt_aggregate_count", "int4"],
  ["receipt_pricing_input_tokens", "int4"],
  ["cost_usd", "numeric"],
  ["avoided_cost_usd", "numeric"],
  ["priced", "bool"],
] as const;

/**
 * How each column's array parameter travels: in Postgres's binary array format (see
 * pg-binary-array.ts), or — for numeric, whose binary form is base-10000 digit groups — as an
 * array literal.
 */
const BINARY_ELEMENT: readonly (BinaryElement | null)[] = INGEST_COLUMNS.map(([, t]) =>
  t === "numeric" ? null : t,
);

const ARRAY_ESCAPE = /["\\]/;
const ARRAY_ESCAPE_ALL = /["\\]/g;

/**
 * A column's values as the Postgres array literal the driver would send (every element quoted,
 * `"` and `\\` backslash-escaped, null as NULL), built in one pass: pg's own serializer runs two
 * regex replacements per element, which for a batch's 37 columns was the biggest single cost of a
 * small batch in Node. Elements are strings, numbers or booleans (their text, as the driver writes it).
 */
export function pgArrayLiteral(values: readonly unknown[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    const v = values[i];
    if (v === null || v === undefined) {
      out += "NULL";
      continue;
    }
    const text = typeof v === "string" ? v : String(v);
    out += ARRAY_ESCAPE.test(text) ? `"${text.replace(ARRAY_ESCAPE_ALL, "\\$&")}"` : `"${text}"`;
  }
  return `${out}}`;
}

const pgTextArray = (values: string[]) =>
  `{${values.map((v) => `"${v.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
const jsonOrNull = (v: unknown) => (v == null ? null : JSON.stringify(v));

// Columns every event fills; the others are sent only when some event of the batch has a value
// (an all-null column is left to its default), which keeps the statement as narrow as the data.
const ALWAYS = new Set([
  "call_id",
  "attempt_index",
  "timestamp",
  "sdk_instance_id",
  "model",
  "provider",
  "modality",
  "status",
  "input_tokens",
  "output_tokens",
  "latency_ms",
  "is_model_fallback",
  "is_provider_fallback",
  "agent_run_id",
  "priced",
]);

/**
 * One statement per batch: the events insert skips duplicates on either unique key, and the agent
 * runs of exactly the rows that went in are upserted in the same statement (so a replayed batch
 * never double counts a run). Runs are upserted in id order to keep lock order stable.
 */
function insertSql(columns: (typeof INGEST_COLUMNS)[number][]): string {
  const names: string[] = columns.map(([c]) => c);
  const has = (c: string) => names.includes(c);
  const flags = has("velocity_flags")
    ? `coalesce(ARRAY(SELECT DISTINCT f FROM unnest(string_to_array(string_agg(array_to_string(i.velocity_flags, ','), ','), ',')) f WHERE f <> ''), '{}')`
    : `'{}'::text[]`;
  return `
WITH v AS (
  SELECT * FROM unnest(${columns.map(([, t], i) => `$${i + 2}::${t}[]`).join(", ")}) AS v(${names.join(", ")})
), ins AS (
  INSERT INTO metadata_events (project_id, ${names.join(", ")})
  SELECT $1, ${names.map((c) => (c === "velocity_flags" ? "v.velocity_flags::text[]" : `v.${c}`)).join(", ")}
    FROM v
  ON CONFLICT DO NOTHING
  RETURNING call_id, attempt_index, agent_run_id, agent_run_name, parent_agent_run_id, timestamp,
            cost_usd, avoided_cost_usd, priced, velocity_flags
), runs AS (
  INSERT INTO agent_runs (project_id, agent_run_id, name, parent_agent_run_id, is_auto, first_seen_at,
                          last_seen_at, call_count, cost_usd, avoided_cost_usd, unpriced_calls, velocity_flags)
  SELECT $1, i.agent_run_id, max(i.agent_run_name), max(i.parent_agent_run_id),
         i.agent_run_id LIKE '\\_auto-%', min(i.timestamp), max(i.timestamp), count(*),
         coalesce(sum(i.cost_usd), 0), coalesce(sum(i.avoided_cost_usd), 0),
         count(*) FILTER (WHERE NOT i.priced), ${flags}
    FROM ins i
   GROUP BY i.agent_run_id
   ORDER BY i.agent_run_id
  ON CONFLICT (project_id, agent_run_id) DO UPDATE SET
    name = coalesce(excluded.name, agent_runs.name),
    parent_agent_run_id = coalesce(excluded.parent_agent_run_id, agent_runs.parent_agent_run_id),
    first_seen_at = least(agent_runs.first_seen_at, excluded.first_seen_at),
    last_seen_at = greatest(agent_runs.last_seen_at, excluded.last_seen_at),
    call_count = agent_runs.call_count + excluded.call_count,
    cost_usd = agent_runs.cost_usd + excluded.cost_usd,
    avoided_cost_usd = agent_runs.avoided_cost_usd + excluded.avoided_cost_usd,
    unpriced_calls = agent_runs.unpriced_calls + excluded.unpriced_calls,
    velocity_flags = CASE WHEN cardinality(excluded.velocity_flags) = 0 THEN agent_runs.velocity_flags
      ELSE ARRAY(SELECT DISTINCT x FROM unnest(agent_runs.velocity_flags || excluded.velocity_flags) x) END
  RETURNING 1
)
SELECT call_id::text AS call_id, attempt_index FROM ins`;
}

/** Column sets that get a named (prepared once per connection) statement; the rest run unnamed. */
export const NAMED_INSERTS_MAX = 32;
const sqlCache = new Map<string, { name?: string; text: string }>();
const unnamedSql = new Map<string, string>();

/**
 * The insert for one set of used columns (`used[j]` for INGEST_COLUMNS[j]). A named statement is parsed
 * and planned once per connection, not once per batch (that planning is most of a small batch's
 * cost), so the common column sets get one each — but every combination of optional columns is a
 * distinct set (up to 2^22), and each name lives on every pooled connection, in the driver and in
 * Postgres, until it closes. So at most NAMED_INSERTS_MAX sets are named, first come first served;
 * names are never reused for other text. Beyond that the statement runs unnamed (planned per batch),
 * and only a bounded number of those texts is kept.
 */
export function insertStatement(used: readonly boolean[]): { name?: string; text: string } {
  const signature = used.map((u) => (u ? "1" : "0")).join("");
  const named = sqlCache.get(signature);
  if (named) return named;
  const columns = INGEST_COLUMNS.filter((_, j) => used[j]);
  if (sqlCache.size < NAMED_INSERTS_MAX) {
    const stmt = { name: `bw_ingest_${sqlCache.size}`, text: insertSql(columns) };
    sqlCache.set(signature, stmt);
    return stmt;
  }
  let text = unnamedSql.get(signature);
  if (text === undefined) {
    if (unnamedSql.size >= 256) unnamedSql.clear();
    text = insertSql(columns);
    unnamedSql.set(signature, text);
  }
  return { text };
}

/** One request's rows to store: `rows` index `events`; cost and avoided are per row. */
interface InsertPart {
  events: IngestEvent[];
  rows: number[];
  cost: (bigint | null)[];
  avoided: (bigint | null)[];
}

/** Statements of one project's ingest in flight at once; later batches wait and go together. */
export const INGEST_STATEMENTS_IN_FLIGHT = 2;
/** A waiting batch joins a statement while the statement stays within this many rows. */
export const INGEST_GROUP_ROWS = 1000;

interface Waiting {
  part: InsertPart;
  resolve: (inserted: Set<string>) => void;
  reject: (err: unknown) => void;
}
interface InsertQueue {
  waiting: Waiting[];
  /** Rows of the waiting batches. */
  rows: number;
  inFlight: number;
}
const insertQueues = new WeakMap<Pool, Map<string, InsertQueue>>();

/**
 * Group commit. A batch whose project has no statement running is written at once, alone; otherwise
 * it waits, and when the statement finishes, the batches that waited meanwhile go as one statement
 * (up to INGEST_GROUP_ROWS rows). A second statement (at most INGEST_STATEMENTS_IN_FLIGHT) starts
 * beside the running one only when a full group is waiting, so large batches still use two
 * connections while small ones gather into big statements. At the SDK's batch size a
 * statement's fixed work (the agent-run upsert, the commit) then serves many requests instead of
 * one, and nothing waits on a timer: an idle project's batch is never delayed. Each batch still
 * resolves only after its statement has committed, with the call keys of its own rows that went in.
 */
function insertCoalesced(pg: Pool, projectId: string, part: InsertPart): Promise<Set<string>> {
  let queues = insertQueues.get(pg);
  if (queues === undefined) {
    queues = new Map();
    insertQueues.set(pg, queues);
  }
  let queue = queues.get(projectId);
  if (queue === undefined) {
    queue = { waiting: [], rows: 0, inFlight: 0 };
    queues.set(projectId, queue);
  }
  const q = queue;
  const done = new Promise<Set<string>>((resolve, reject) => q.waiting.push({ part, resolve, reject }));
  q.rows += part.rows.length;
  pumpInserts(pg, projectId, queues, q);
  return done;
}

function pumpInserts(pg: Pool, projectId: string, queues: Map<string, InsertQueue>, q: InsertQueue): void {
  // A second statement starts only for a full group: small batches gather behind the running one.
  while (
    q.waiting.length > 0 &&
    (q.inFlight === 0 || (q.inFlight < INGEST_STATEMENTS_IN_FLIGHT && q.rows >= INGEST_GROUP_ROWS))
  ) {
    let take = 1;
    let total = q.waiting[0]!.part.rows.length;
    while (take < q.waiting.length && total + q.waiting[take]!.part.rows.length <= INGEST_GROUP_ROWS) {
      total += q.waiting[take]!.part.rows.length;
      take++;
    }
    const group = q.waiting.splice(0, take);
    q.rows -= total;
    q.inFlight++;
    void writeGroup(pg, projectId, group).finally(() => {
      q.inFlight--;
      if (q.inFlight === 0 && q.waiting.length === 0) queues.delete(projectId);
      else pumpInserts(pg, projectId, queues, q);
    });
  }
}

async function writeGroup(pg: Pool, projectId: string, group: Waiting[]): Promise<void> {
  try {
    const sets = await insertEvents(
      pg,
      projectId,
      group.map((w) => w.part),
    );
    for (let k = 0; k < group.length; k++) group[k]!.resolve(sets[k]!);
  } catch (err) {
    if (group.length === 1) {
      group[0]!.reject(err);
      return;
    }
    // The statement stored nothing. One batch's bad row must not fail the batches it was grouped
    // with: each is written again on its own, and only the one at fault fails.
    await Promise.all(
      group.map((w) =>
        insertEvents(pg, projectId, [w.part]).then(
          (sets) => w.resolve(sets[0]!),
          (e: unknown) => w.reject(e),
        ),
      ),
    );
  }
}

/**
 * Writes the parts' rows in one statement and returns, per part, the call keys of its rows that went
 * in. A later part's row that repeats an earlier part's call key or legacy key is left out (as if the
 * parts had been written one after the other, it would be a duplicate of the row before it), so each
 * key that went in belongs to exactly one part.
 */
async function insertEvents(pg: Pool, projectId: string, parts: InsertPart[]): Promise<Set<string>[]> {
  let n = 0;
  for (const p of parts) n += p.rows.length;
  const cols: unknown[][] = INGEST_COLUMNS.map(() => new Array(n));
  const used = INGEST_COLUMNS.map(([c]) => ALWAYS.has(c));
  const owner = new Map<string, number>();
  const legacy = parts.length > 1 ? new Set<string>() : null;
  let k = 0;
  parts.forEach(({ events, rows, cost, avoided }, part) => {
    rows.forEach((i, r) => {
      const e = events[i]!;
      const callKey = `${e.call_id}/${e.attempt_index}`;
      if (legacy !== null) {
        const legacyKey = `${e.timestamp.micros}/${e.sdk_instance_id}`;
        if (owner.has(callKey) || legacy.has(legacyKey)) return;
        legacy.add(legacyKey);
      }
      owner.set(callKey, part);
      const c = cost[r] ?? null;
      const a = avoided[r] ?? null;
      // Unpriced = the catalogue could not price what this event is about (actual or avoided).
      const priced = e.status === "budget_denied" ? a !== null : c !== null;
      const flags = e.velocity_flags && e.velocity_flags.length > 0 ? pgTextArray(e.velocity_flags) : null;
      const values: unknown[] = [
        e.call_id,
        e.attempt_index,
        e.timestamp.micros,
        e.sdk_instance_id,
        e.model,
        e.provider,
        e.modality,
        e.status,
        e.input_tokens,
        e.output_tokens,
        jsonOrNull(e.token_details),
        jsonOrNull(e.media_usage),
        Math.min(Math.round(e.latency_ms), INT32_MAX),
        e.is_model_fallback,
        e.is_provider_fallback,
        e.requested_provider ?? null,
        e.requested_model ?? null,
        e.failover_reason ?? null,
        e.failover_error_class ?? null,
        e.possibly_succeeded ?? null,
        e.service_tier ?? null,
        runIdOf(e),
        e.parent_agent_run_id ?? null,
        e.agent_run_name ?? null,
        e.provider_region ?? null,
        jsonOrNull(e.tags),
        e.lease_id ?? null,
        e.deny_source ?? null,
        e.deny_reason ?? null,
        e.denied_by_period ?? null,
        e.estimated_output_bound ?? null,
        flags,
        e.receipt_aggregate_count ?? null,
        e.receipt_pricing_input_tokens ?? null,
        c === null ? null : nanosToDecimalString(c),
        a === null ? null : nanosToDecimalString(a),
        priced,
      ];
      for (let j = 0; j < values.length; j++) {
        cols[j]![k] = values[j];
        if (values[j] !== null) used[j] = true;
      }
      k++;
    });
  });
  if (k < n) for (const col of cols) col.length = k;
  // velocity_flags is NOT NULL (default '{}'): when some rows carry flags, the others send '{}'.
  const flagsAt = INGEST_COLUMNS.findIndex(([c]) => c === "velocity_flags");
  if (used[flagsAt]) cols[flagsAt] = cols[flagsAt]!.map((f) => f ?? "{}");
  const stmt = insertStatement(used);
  const params: unknown[] = [projectId];
  for (let j = 0; j < cols.length; j++) {
    if (!used[j]) continue;
    const binary = BINARY_ELEMENT[j];
    params.push(binary == null ? pgArrayLiteral(cols[j]!) : pgBinaryArray(binary, cols[j]!));
  }
  // Two batches carrying the same events in different orders can deadlock on the unique indexes;
  // Postgres aborts one of them, and running it again is all it takes.
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await pg.query<{ call_id: string; attempt_index: number }>({ ...stmt, values: params });
      const sets = parts.map(() => new Set<string>());
      for (const row of res.rows) {
        const key = `${row.call_id}/${row.attempt_index}`;
        const part = owner.get(key);
        if (part !== undefined) sets[part]!.add(key);
      }
      return sets;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 3 || (code !== "40P01" && code !== "40001")) throw err;
    }
  }
}

/**
 * Which of the events that were not stored collided on the call key (the rest on the legacy key).
 * Both unique keys contain the timestamp (metadata_events is partitioned by it), so the stored
 * twin has the event's own timestamp: the bounds keep the probe to the batch's partitions.
 */
async function existingCallKeys(pg: Pool, projectId: string, events: IngestEvent[]): Promise<Set<string>> {
  const micros = events.map((e) => e.timestamp.micros);
  const first = events[micros.indexOf(Math.min(...micros))]!.timestamp.iso;
  const last = events[micros.indexOf(Math.max(...micros))]!.timestamp.iso;
  const res = await pg.query<{ call_id: string; attempt_index: number }>(
    `SELECT m.call_id::text AS call_id, m.attempt_index FROM metadata_events m
       JOIN unnest($2::uuid[], $3::int[], $4::timestamptz[]) AS k(call_id, attempt_index, ts)
         ON m.call_id = k.call_id AND m.attempt_index = k.attempt_index AND m."timestamp" = k.ts
      WHERE m.project_id = $1 AND m."timestamp" >= $5::timestamptz AND m."timestamp" <= $6::timestamptz`,
    [
      projectId,
      events.map((e) => e.call_id),
      events.map((e) => e.attempt_index),
      events.map((e) => e.timestamp.iso),
      first,
      last,
    ],
  );
  return new Set(res.rows.map((r) => `${r.call_id}/${r.attempt_index}`));
}
