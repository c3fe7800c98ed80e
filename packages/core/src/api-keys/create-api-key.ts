import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { notFound } from "../errors";
import { newId } from "../ids";
import { type ApiKeyDto, toApiKeyDto } from "./api-key-dto";
import { displayPrefix, hashApiKey, mintApiKey } from "./api-key-format";
import { invalidateApiKey } from "./invalidate-api-key";

export type { ApiKeyDto };
export { toApiKeyDto };

export const createApiKeyInput = z.object({
  projectId: z.string().min(1),
  name: z.string().trim().min(1).max(100).default("Default key"),
  readOnly: z.boolean().default(false),
  expiresAt: z.coerce.date().optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

/**
 * Mints a project key; the plaintext is returned once and only its SHA-256 is stored. Requires the
 * admin role in the project's organization (a project of another tenant is NOT_FOUND).
 */
export async function createApiKey(
  ctx: Ctx,
  raw: CreateApiKeyInput,
): Promise<{ apiKey: string; key: ApiKeyDto }> {
  const input = createApiKeyInput.parse(raw);
  const project = await ctx.db.project.findUnique({ where: { id: input.projectId } });
  if (!project || (ctx.organizationId && project.organizationId !== ctx.organizationId)) {
    throw notFound("Project");
  }
  requireRole(ctx, "admin");
  const apiKey = mintApiKey();
  const id = newId("key");
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        id,
        projectId: project.id,
        name: input.name,
        hash: hashApiKey(apiKey),
        prefix: displayPrefix(apiKey),
        readOnly: input.readOnly,
        expiresAt: input.expiresAt ?? null,
        createdById: ctx.actor.type === "user" ? ctx.actor.userId : null,
      },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: "api_key.create",
      targetType: "api_key",
      targetId: id,
      after: { projectId: project.id, name: input.name, readOnly: input.readOnly, prefix: created.prefix },
    });
    return created;
  });
  // SDK API replicas refuse keys they do not know without a lookup: announce this one to all of
  // them (a missed announcement is caught by their bounded lookups and periodic reload).
  await invalidateApiKey(ctx, row.hash).catch((err: unknown) =>
    ctx.log.warn({ err, keyId: id }, "new key not announced to SDK API replicas; found by lookup instead"),
  );
  return { apiKey, key: toApiKeyDto(row) };
}
