import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { type Ctx, systemCtx } from "../context";
import { DomainError } from "../errors";
import { newId } from "../ids";
import { createUserWithPassword, setOperatorRole } from "./operator-role";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const sys = systemCtx({ db, config, log: pino({ level: "silent" }) }, "operator-role-test");
afterAll(() => db.$disconnect());

const hash = async (p: string) => `test-hash:${p.length}`;

describe("operator role", () => {
  it("operators grant and revoke the role of others (audited); non-operators cannot", async () => {
    const tag = newId("res").slice(-10);
    const op = await createUserWithPassword(
      sys,
      { email: `op-${tag}@example.test`, name: "Op", password: "12345678", operator: true },
      hash,
    );
    const other = await createUserWithPassword(
      sys,
      { email: `u-${tag}@example.test`, name: "U", password: "12345678" },
      hash,
    );
    const asOp: Ctx = { ...sys, actor: { type: "user", userId: op.id, isOperator: true } };
    const asOther: Ctx = { ...sys, actor: { type: "user", userId: other.id, isOperator: false } };

    const refused = await setOperatorRole(asOther, { user: other.id, isOperator: true }).catch(
      (e: unknown) => e,
    );
    expect((refused as DomainError).code).toBe("FORBIDDEN");

    expect((await setOperatorRole(asOp, { user: other.email, isOperator: true })).isOperator).toBe(true);
    expect((await setOperatorRole(asOp, { user: other.id, isOperator: false })).isOperator).toBe(false);
    const audits = await db.auditEvent.findMany({
      where: { targetId: other.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => [a.action, a.actorId, a.before, a.after])).toEqual([
      ["user.create", "operator-role-test", null, { email: other.email, name: "U", isOperator: false }],
      ["user.operator_granted", op.id, { isOperator: false }, { isOperator: true }],
      ["user.operator_revoked", op.id, { isOperator: true }, { isOperator: false }],
    ]);
  });

  it("the last operator cannot be revoked", async () => {
    const tag = newId("res").slice(-10);
    const op = await createUserWithPassword(
      sys,
      { email: `last-${tag}@example.test`, name: "Last", password: "12345678", operator: true },
      hash,
    );
    // Leave exactly one operator for this check, then restore the others.
    const others = await db.user.findMany({
      where: { isOperator: true, id: { not: op.id } },
      select: { id: true },
    });
    await db.user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { isOperator: false } });
    try {
      const err = await setOperatorRole(sys, { user: op.id, isOperator: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe("CONFLICT");
      expect((await db.user.findUniqueOrThrow({ where: { id: op.id } })).isOperator).toBe(true);
    } finally {
      await db.user.updateMany({
        where: { id: { in: others.map((o) => o.id) } },
        data: { isOperator: true },
      });
    }
  });
});
