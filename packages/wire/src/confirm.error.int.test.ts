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

describe("confirm refusals", () => {
  it("bad ids are 422/404", async () => {
    const t = await createTenant(h);
    const check = (await post(h, CHECK, checkBody(), t.key)).json() as { reservation_id: string };
    const confirm = confirmBody(check.reservation_id);
    expect((await post(h, CONFIRM, { ...confirm, lease_id: "lse_contract" }, t.key)).status).toBe(422);
    const { reservation_id: _r, ...neither } = confirm;
    expect((await post(h, CONFIRM, { ...neither, call_id: crypto.randomUUID() }, t.key)).status).toBe(422);
    const unknown = await post(
      h,
      CONFIRM,
      { ...confirm, reservation_id: "res_contract_unknown", call_id: crypto.randomUUID() },
      t.key,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('{"detail":"Reservation not found or expired"}');
  });
});
