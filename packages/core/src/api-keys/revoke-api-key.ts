import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { notFound } from "../errors";
import { type ApiKeyDto, toApiKeyDto } from "./create-api-key";
import { invalidateApiKey } from "./invalidate-api-key";

export const revokeApiKeyInput = z.object({ keyId: z.string().min(1) });
export type RevokeApiKeyInput = z.input<typeof revokeApiKeyInput>;

/**
 * Revokes a project key (idempotent: revoking a revoked key keeps its first revocation time).
 * Requires the admin role; a key of another tenant is NOT_FOUND. Every replica stops accepting the key
 * within one pub/sub hop (when the context carries Redis).
 */
export async function revokeApiKey(ctx: Ctx, raw: RevokeApiKeyInput): Promise<ApiKeyDto> {
  const input = revokeApiKeyInput.parse(raw);
  const key = await ctx.db.apiKey.findUnique({ where: { id: input.keyId }, include: { project: true } });
  if (!key || (ctx.organizationId && key.project.organizationId !== ctx.organizationId)) {
    throw notFound("API key");
  }
  requireRole(ctx, "admin");
  if (key.revokedAt) return toApiKeyDto(key);
  const row = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, ctx.actor, {
      organizationId: key.project.organizationId,
      action: "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      before: { revokedAt: null },
      after: { revokedAt: updated.revokedAt?.toISOString() },
    });
    return updated;
  });
  // Every replica drops the key from its auth cache now, not when the cache entry expires.
  await invalidateApiKey(ctx, key.hash).catch((err: unknown) =>
    ctx.log.warn({ err, keyId: key.id }, "revoked key not invalidated on other replicas; cache TTL applies"),
  );
  return toApiKeyDto(row);
}
