import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  breakerPath,
  CHECK,
  CONFIRM,
  checkBody,
  createTenant,
  event,
  type Harness,
  INGEST,
  post,
  startHarness,
  storedCounts,
  surfaceReport,
  type Tenant,
  UNTRACKED,
} from "./testing/harness";

// Property: a request key named like an Object.prototype member (or `__proto__`) is an ordinary
// unknown key wherever it appears. On every SDK endpoint, at every object level of a valid body,
// it is refused with the strict schema's 422 envelope (`extra_forbidden` at its own loc) and
// nothing is stored; as a tag key it is an ordinary key like any other the SDKs accept: a check is
// answered, an event is ingested with its tags stored as sent (never resolved to the prototype).

/** Every Object.prototype member name, `__proto__` included (an own accessor of Object.prototype). */
const NAMES = Object.getOwnPropertyNames(Object.prototype);

let h: Harness;
let t: Tenant;
beforeAll(async () => {
  h = await startHarness();
  t = await createTenant(h, { plan: "business" });
});
afterAll(async () => {
  await h?.close();
});

const stored = () => storedCounts(h, t);

/** A deep copy of `body` with an own, enumerable `name: "x"` added to the object at `at`. */
function withKey(body: unknown, at: (string | number)[], name: string): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string | number, unknown>;
  let target = copy as Record<string | number, unknown>;
  for (const p of at) target = target[p] as Record<string | number, unknown>;
  // defineProperty, not assignment: `target.__proto__ = "x"` would not add a key at all.
  Object.defineProperty(target, name, { value: "x", enumerable: true, writable: true, configurable: true });
  return copy;
}

const MEDIA = { image_count: 1, resolution: "1024x1024" };
const confirmBody = (): Record<string, unknown> => ({
  reservation_id: "res_prototype_keys",
  model: "gpt-5.5",
  provider: "openai",
  modality: "text",
  is_provider_fallback: false,
  call_id: crypto.randomUUID(),
  token_details: { input_tokens: 10, output_tokens: 5 },
});
const breakerBody = () => ({
  provider: "openai",
  state: "open",
  failure_count: 1,
  success_count: 0,
  reported_at: new Date().toISOString(),
  sdk_instance_id: "proto-keys",
});

/**
 * Each endpoint, and every object level of a valid body: the body and the path of the object in
 * it. Plain bodies take the hot-path validators, bodies with media the zod schemas: both are tried.
 */
const CASES: { name: string; path: () => string; levels: [() => unknown, (string | number)[]][] }[] = [
  {
    name: "check",
    path: () => CHECK,
    levels: [
      [() => checkBody(), []],
      [() => checkBody({ estimated_media: MEDIA }), []],
      [() => checkBody({ estimated_media: MEDIA }), ["estimated_media"]],
    ],
  },
  {
    name: "confirm",
    path: () => CONFIRM,
    levels: [
      [confirmBody, []],
      [confirmBody, ["token_details"]],
      [() => ({ ...confirmBody(), media_usage: MEDIA }), ["media_usage"]],
    ],
  },
  {
    name: "ingest",
    path: () => INGEST,
    levels: [
      [() => [event({ tags: { team: "search" } })], [0]],
      [() => [event()], [0, "token_details"]],
      [() => [event({ media_usage: MEDIA })], [0]],
      [() => [event({ media_usage: MEDIA })], [0, "token_details"]],
      [() => [event({ media_usage: MEDIA })], [0, "media_usage"]],
    ],
  },
  { name: "breaker-reports", path: () => breakerPath(t.projectId), levels: [[breakerBody, []]] },
  { name: "untracked-surfaces", path: () => UNTRACKED, levels: [[() => [surfaceReport()], [0]]] },
];

describe("a key named like an Object.prototype member", () => {
  for (const c of CASES) {
    it(`${c.name}: refused with a 422 extra_forbidden at every object level, nothing stored`, async () => {
      const before = await stored();
      for (const [body, at] of c.levels) {
        for (const name of NAMES) {
          const r = await post(h, c.path(), withKey(body(), at, name), t.key);
          const where = `${c.name} ${JSON.stringify([...at, name])}`;
          expect(r.status, where).toBe(422);
          expect(r.headers.get("content-type"), where).toBe("application/json");
          const detail = (r.json() as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail;
          expect(detail, where).toContainEqual({
            loc: ["body", ...at, name],
            msg: "Extra inputs are not permitted",
            type: "extra_forbidden",
          });
        }
      }
      expect(await stored()).toBe(before);
    });
  }

  it("inside a check's tags: an ordinary tag key, the check answered 200", async () => {
    for (const name of NAMES) {
      const r = await post(h, CHECK, withKey(checkBody({ tags: { team: "search" } }), ["tags"], name), t.key);
      expect(r.status, name).toBe(200);
      expect(r.headers.get("content-type"), name).toBe("application/json");
    }
  });

  it("inside an event's tags: the event is ingested with the key stored as sent", async () => {
    const tenant = await createTenant(h, { plan: "business" });
    for (const name of NAMES) {
      const e = withKey(event({ tags: { team: "search" } }), ["tags"], name) as { call_id: string };
      const r = await post(h, INGEST, [e], tenant.key);
      expect(r.status, name).toBe(202);
      const body = r.json() as { ingested: number; rejected: unknown[] };
      expect(body, name).toMatchObject({ ingested: 1, rejected: [] });
      const [row] = await h.db.$queryRaw<{ tags: string }[]>`
        SELECT tags::text AS tags FROM metadata_events WHERE project_id = ${tenant.projectId} AND call_id = ${e.call_id}::uuid`;
      expect(Object.keys(JSON.parse(row!.tags)).sort(), name).toEqual([name, "team"].sort());
      expect(Object.getOwnPropertyDescriptor(JSON.parse(row!.tags), name)?.value, name).toBe("x");
    }
  });

  it('a check and an ingest with tags {"constructor":"a","toString":"b"}: accepted and stored as sent', async () => {
    const tenant = await createTenant(h, { plan: "business" });
    const tags = JSON.parse('{"constructor":"a","toString":"b"}') as Record<string, string>;
    const check = await post(h, CHECK, checkBody({ tags }), tenant.key);
    expect(check.status).toBe(200);
    const e = event({ tags }) as { call_id: string };
    const r = await post(h, INGEST, [e], tenant.key);
    expect(r.status).toBe(202);
    expect(r.json()).toMatchObject({ ingested: 1, rejected: [], duplicates: [] });
    const [row] = await h.db.$queryRaw<{ tags: string }[]>`
      SELECT tags::text AS tags FROM metadata_events WHERE project_id = ${tenant.projectId} AND call_id = ${e.call_id}::uuid`;
    expect(row!.tags).toBe('{"toString": "b", "constructor": "a"}');
  });
});
