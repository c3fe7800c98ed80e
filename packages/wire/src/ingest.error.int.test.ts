import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, event, type Harness, INGEST, post, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("ingest refusals", () => {
  it("envelope errors: not a list → 422, more than 1000 → 400, a malformed event → 422 and nothing stored", async () => {
    const t = await createTenant(h);
    expect((await post(h, INGEST, { events: [] }, t.key)).status).toBe(422);
    const big = await post(
      h,
      INGEST,
      Array.from({ length: 1001 }, () => event()),
      t.key,
    );
    expect(big.status).toBe(400);
    const bad = await post(h, INGEST, [event(), event({ call_id: "NOT-A-UUID" })], t.key);
    expect(bad.status).toBe(422);
    expect((bad.json() as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(["body", 1, "call_id"]);
    expect(await h.db.metadataEvent.count({ where: { projectId: t.projectId } })).toBe(0);
  });
});
