import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHECK,
  CONFIRM,
  checkBody,
  confirmBody,
  createTenant,
  type Harness,
  post,
  startHarness,
} from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("confirm", () => {
  it("settles once; replays and new call ids on a settled reservation are 204", async () => {
    const t = await createTenant(h);
    const check = (await post(h, CHECK, checkBody(), t.key)).json() as { reservation_id: string };
    const confirm = confirmBody(check.reservation_id);
    const first = await post(h, CONFIRM, confirm, t.key);
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    expect((await post(h, CONFIRM, confirm, t.key)).status).toBe(204);
    expect((await post(h, CONFIRM, { ...confirm, call_id: crypto.randomUUID() }, t.key)).status).toBe(204);
  });
});
