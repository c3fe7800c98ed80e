import { afterAll, describe, expect, it } from "vitest";
import { apiTestEnv, codeOf } from "../testing";

const { deps, signUp, close } = apiTestEnv("api-management-key-test");
afterAll(close);

/** An organization with an owner and one more member in `role`. */
async function orgWith(role: "admin" | "member" | "viewer") {
  const owner = await signUp("Owner");
  const other = await signUp(role);
  const asOwner = await owner.caller();
  await asOwner.organization.create({ name: `Keys ${role}` });
  const { url } = await asOwner.member.invite({ email: other.email, role });
  await (await other.caller()).invitation.accept({ token: url.split("/invite/")[1]! });
  return { asOwner, asOther: await other.caller() };
}

describe("managementKey procedures", () => {
  it("owners and admins create, list and revoke; the key is answered once", async () => {
    const { asOwner, asOther: asAdmin } = await orgWith("admin");
    const created = await asAdmin.managementKey.create({ name: "ci", scope: "write" });
    expect(created.managementKey).toMatch(/^sk_mgmt_[0-9a-f]{64}$/);
    const list = await asOwner.managementKey.list();
    expect(list.map((k) => k.id)).toEqual([created.key.id]);
    expect(JSON.stringify(list)).not.toContain(created.managementKey);
    const revoked = await asOwner.managementKey.revoke({ keyId: created.key.id });
    expect(revoked.revokedAt).not.toBeNull();
  });

  it("members and viewers are refused by the procedures themselves, not only by hidden buttons", async () => {
    for (const role of ["member", "viewer"] as const) {
      const { asOwner, asOther } = await orgWith(role);
      const { key } = await asOwner.managementKey.create({ name: "ci", scope: "read" });
      expect(await codeOf(asOther.managementKey.list())).toBe("FORBIDDEN");
      expect(await codeOf(asOther.managementKey.create({ name: "x", scope: "read" }))).toBe("FORBIDDEN");
      expect(await codeOf(asOther.managementKey.revoke({ keyId: key.id }))).toBe("FORBIDDEN");
      expect((await asOwner.managementKey.list())[0]!.revokedAt).toBeNull();
    }
  });

  it("operator keys: not through the organization's create, and only for operators", async () => {
    const { asOwner } = await orgWith("admin");
    expect(await codeOf(asOwner.managementKey.create({ name: "x", scope: "operator" as "read" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(asOwner.managementKey.operatorCreate({ name: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(asOwner.managementKey.operatorList())).toBe("FORBIDDEN");

    const op = await signUp("Operator");
    await deps.db.user.update({ where: { id: op.userId }, data: { isOperator: true } });
    const asOp = await op.caller();
    const { key } = await asOp.managementKey.operatorCreate({ name: "billing" });
    expect(key).toMatchObject({ scope: "operator", organizationId: null });
    expect((await asOp.managementKey.operatorList()).map((k) => k.id)).toContain(key.id);
    expect((await asOp.managementKey.operatorRevoke({ keyId: key.id })).revokedAt).not.toBeNull();
  });
});
