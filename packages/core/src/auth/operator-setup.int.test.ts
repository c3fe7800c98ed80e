import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { pino } from "pino";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { systemCtx } from "../context";
import { DomainError } from "../errors";
import { newId } from "../ids";
import { createUserWithPassword } from "./operator-role";
import { checkOperatorSetupToken, issueOperatorSetupToken, redeemOperatorSetupToken } from "./operator-setup";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const sys = systemCtx({ db, config, log: pino({ level: "silent" }) }, "operator-setup-test");
afterAll(() => db.$disconnect());

const hash = async (p: string) => `test-hash:${p.length}`;
const user = async (operator = false) =>
  createUserWithPassword(
    sys,
    { email: `setup-${newId("res").slice(-12)}@example.test`, name: "S", password: "12345678", operator },
    hash,
  );
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof DomainError ? `${e.code}: ${e.message}` : String(e)),
  );

// These tests need an installation without an operator: they take the role away from everyone
// (other suites create their operators afresh) and run one at a time.
describe.sequential("operator setup link", () => {
  beforeEach(async () => {
    await db.user.updateMany({ where: { isOperator: true }, data: { isOperator: false } });
  });

  it("makes exactly one account the operator; a second use is refused; nothing is stored but a hash", async () => {
    const issued = await issueOperatorSetupToken(sys);
    expect(issued).not.toBeNull();
    const { token } = issued!;
    // 256 random bits, base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await db.operatorSetupToken.count({ where: { tokenHash: token } })).toBe(0);
    expect(await checkOperatorSetupToken(sys, token)).toBe("valid");

    const a = await user();
    const b = await user();
    await redeemOperatorSetupToken(sys, { token, userId: a.id });
    expect((await db.user.findUniqueOrThrow({ where: { id: a.id } })).isOperator).toBe(true);
    expect(await checkOperatorSetupToken(sys, token)).toBe("used");
    expect(await refusal(redeemOperatorSetupToken(sys, { token, userId: b.id }))).toBe(
      "FORBIDDEN: This setup link was already used.",
    );
    expect((await db.user.findUniqueOrThrow({ where: { id: b.id } })).isOperator).toBe(false);
    const audit = await db.auditEvent.findFirst({
      where: { targetId: a.id, action: "user.operator_granted" },
    });
    expect(audit).toMatchObject({ actorType: "system", actorId: "operator-setup-link" });
    // Once an operator exists no new link is issued.
    expect(await issueOperatorSetupToken(sys)).toBeNull();
  });

  it("expires, and each new link replaces the previous one", async () => {
    const old = (await issueOperatorSetupToken(sys))!;
    const fresh = (await issueOperatorSetupToken(sys))!;
    expect(await checkOperatorSetupToken(sys, old.token)).toBe("unknown");
    const later = new Date(fresh.expiresAt.getTime() + 1);
    expect(await checkOperatorSetupToken(sys, fresh.token, later)).toBe("expired");
    const u = await user();
    expect(await refusal(redeemOperatorSetupToken(sys, { token: fresh.token, userId: u.id }, later))).toMatch(
      /^FORBIDDEN: This setup link has expired/,
    );
    expect(await refusal(redeemOperatorSetupToken(sys, { token: "made-up", userId: u.id }))).toMatch(
      /^FORBIDDEN: This setup link is not valid/,
    );
    expect((await db.user.findUniqueOrThrow({ where: { id: u.id } })).isOperator).toBe(false);
  });

  it("a link issued before someone became operator by other means is refused", async () => {
    const { token } = (await issueOperatorSetupToken(sys))!;
    await user(true);
    expect(await checkOperatorSetupToken(sys, token)).toBe("operator_exists");
    const u = await user();
    expect(await refusal(redeemOperatorSetupToken(sys, { token, userId: u.id }))).toBe(
      "FORBIDDEN: This installation already has an operator.",
    );
  });
});
