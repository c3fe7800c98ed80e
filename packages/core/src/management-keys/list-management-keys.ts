import { z } from "zod";
import { type Ctx, isOperatorActor, requireRole } from "../context";
import { forbidden, invalid } from "../errors";
import { type ManagementKeyDto, toManagementKeyDto } from "./management-key-dto";

export const listManagementKeysInput = z.object({
  /** `organization`: the caller's organization's read and write keys; `operator`: the installation's operator keys. */
  owner: z.enum(["organization", "operator"]).default("organization"),
});
export type ListManagementKeysInput = z.input<typeof listManagementKeysInput>;

/**
 * Management keys, newest first, revoked ones included (so a listing explains why a job stopped).
 * Organization keys need the admin role; operator keys the operator.
 */
export async function listManagementKeys(
  ctx: Ctx,
  raw: ListManagementKeysInput = {},
): Promise<ManagementKeyDto[]> {
  const input = listManagementKeysInput.parse(raw);
  if (ctx.actor.type === "management_key")
    throw forbidden("Management keys are listed in the dashboard or with bw");
  let organizationId: string | null = null;
  if (input.owner === "operator") {
    if (!isOperatorActor(ctx.actor))
      throw forbidden("Only an operator of this installation can see operator keys");
  } else {
    if (!ctx.organizationId) throw invalid("Choose an organization first");
    requireRole(ctx, "admin");
    organizationId = ctx.organizationId;
  }
  const rows = await ctx.db.managementKey.findMany({
    where: organizationId ? { organizationId } : { organizationId: null, scope: "operator" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toManagementKeyDto);
}
