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
// nothing is stored; as a tag key it is reserved: a check is refused with the 422 envelope and an
// ingested event lands in the batch's rejected lane as invalid_tags.

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

  it("inside a check's tags: refused with the 422 envelope naming the reserved key, nothing stored", async () => {
    const before = await stored();
    for (const name of NAMES) {
      const r = await post(h, CHECK, withKey(checkBody({ tags: { team: "search" } }), ["tags"], name), t.key);
      expect(r.status, name).toBe(422);
      expect(r.headers.get("content-type"), name).toBe("application/json");
      const detail = (r.json() as { detail: { loc: unknown[]; msg: string }[] }).detail;
      expect(detail.length, name).toBeGreaterThan(0);
      expect(detail[0]!.loc.slice(0, 2), name).toEqual(["body", "tags"]);
      expect(detail[0]!.msg, name).toContain(`"${name}" is reserved`);
    }
    expect(await stored()).toBe(before);
  });

  it("inside an event's tags: the event is rejected as invalid_tags (the batch's own lane), nothing stored", async () => {
    const tenant = await createTenant(h, { plan: "business" });
    for (const name of NAMES) {
      const e = withKey(event({ tags: { team: "search" } }), ["tags"], name) as { call_id: string };
      const r = await post(h, INGEST, [e], tenant.key);
      expect(r.status, name).toBe(202);
      const body = r.json() as {
        ingested: number;
        rejected: { index: number; code: string; message: string }[];
      };
      expect(body.ingested, name).toBe(0);
      expect(
        body.rejected.map((x) => [x.index, x.code]),
        name,
      ).toEqual([[0, "invalid_tags"]]);
      expect(body.rejected[0]!.message, name).toContain(`"${name}" is reserved`);
      expect(await h.db.metadataEvent.count({ where: { projectId: tenant.projectId } }), name).toBe(0);
    }
  });
});
