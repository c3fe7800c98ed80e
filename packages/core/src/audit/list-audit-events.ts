import { z } from "zod";
import { type Ctx, requireRole } from "../context";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { invalid } from "../errors";

const DAY_MS = 24 * 3600 * 1000;

export const listAuditEventsInput = z
  .object({
    /** A user id (as shown in the actor filter) or "system". */
    actorId: z.string().trim().min(1).max(100).optional(),
    /** A target type (`member`) or action prefix (`invitation`, `webhook_endpoint`). */
    kind: z
      .string()
      .trim()
      .regex(/^[a-z_]{1,40}$/, "Unknown kind")
      .optional(),
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    cursor: z.string().max(200).optional(),
    /** The management API's cursor: the id of the last event of the previous page (instead of `cursor`). */
    startingAfter: z.string().min(1).max(100).optional(),
    limit: z.number().int().min(1).max(100).default(50),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: "From must be before To", path: ["from"] });
export type ListAuditEventsInput = z.input<typeof listAuditEventsInput>;

export interface AuditEventDto {
  id: string;
  createdAt: string;
  actor: { type: string; id: string | null; name: string | null; email: string | null };
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
}

export interface AuditPageDto {
  events: AuditEventDto[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** The organization's effective audit_log_days: older events are not kept. */
  retentionDays: number;
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [ts, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(ts ?? "");
  if (!id || Number.isNaN(createdAt.getTime())) throw invalid("This page link is not valid");
  return { createdAt, id };
}

const encodeCursor = (e: { createdAt: Date; id: string }) =>
  Buffer.from(`${e.createdAt.toISOString()}|${e.id}`).toString("base64url");

/**
 * The caller's organization's audit log, newest first, filtered by actor, kind and date range,
 * paged by keyset (created_at, id) so a page costs the same however deep it is. Admins and owners
 * only; events older than the effective audit_log_days are never shown (the retention job deletes them).
 */
export async function listAuditEvents(
  ctx: Ctx,
  raw: ListAuditEventsInput,
  now = new Date(),
): Promise<AuditPageDto> {
  const input = listAuditEventsInput.parse(raw);
  requireRole(ctx, "admin");
  const organizationId = ctx.organizationId;
  if (!organizationId) throw invalid("Choose an organization first");
  const ent = await resolveEntitlements(ctx.db, organizationId);
  const retentionDays = Number(ent.values.audit_log_days);
  const kept = new Date(now.getTime() - retentionDays * DAY_MS);
  const from = input.from && input.from > kept ? input.from : kept;
  let after = input.cursor ? decodeCursor(input.cursor) : null;
  if (input.startingAfter) {
    const from = await ctx.db.auditEvent.findFirst({
      where: { id: input.startingAfter, organizationId },
      select: { id: true, createdAt: true },
    });
    if (!from) {
      throw invalid("starting_after is not an event of this log", {
        fieldErrors: { startingAfter: "No event of this log has that id" },
      });
    }
    after = from;
  }

  const rows = await ctx.db.auditEvent.findMany({
    where: {
      AND: [
        { organizationId, createdAt: { gte: from, ...(input.to ? { lte: input.to } : {}) } },
        input.actorId
          ? input.actorId === "system"
            ? { actorType: "system" }
            : { actorId: input.actorId }
          : {},
        input.kind ? { OR: [{ targetType: input.kind }, { action: { startsWith: `${input.kind}.` } }] } : {},
        after
          ? {
              OR: [
                { createdAt: { lt: after.createdAt } },
                { createdAt: after.createdAt, id: { lt: after.id } },
              ],
            }
          : {},
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const userIds = [
    ...new Set(
      page.filter((r) => r.actorType === "user" || r.actorType === "operator").map((r) => r.actorId!),
    ),
  ];
  const users = userIds.length
    ? await ctx.db.user.findMany({
        where: { id: { in: userIds } },
        select: { id: true, name: true, email: true },
      })
    : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  // Writes made with a management key name the key (revoked keys keep their name).
  const keyIds = [
    ...new Set(page.filter((r) => r.actorType === "management_key" && r.actorId).map((r) => r.actorId!)),
  ];
  const keys = keyIds.length
    ? await ctx.db.managementKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } })
    : [];
  const keyNames = new Map(keys.map((k) => [k.id, k.name]));
  return {
    retentionDays,
    nextCursor: rows.length > input.limit && page.length ? encodeCursor(page[page.length - 1]!) : null,
    events: page.map((r) => {
      const u = r.actorId ? byId.get(r.actorId) : undefined;
      return {
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        actor: {
          type: r.actorType,
          id: r.actorId,
          name:
            u?.name ??
            (r.actorType === "management_key" && r.actorId ? keyNames.get(r.actorId) : null) ??
            null,
          email: u?.email ?? null,
        },
        action: r.action,
        targetType: r.targetType,
        targetId: r.targetId,
        before: r.before ?? null,
        after: r.after ?? null,
      };
    }),
  };
}

/** The kinds (target types) present in the organization's audit log, for the filter. */
export async function listAuditKinds(ctx: Ctx): Promise<string[]> {
  requireRole(ctx, "admin");
  if (!ctx.organizationId) return [];
  const rows = await ctx.db.auditEvent.findMany({
    where: { organizationId: ctx.organizationId },
    distinct: ["targetType"],
    select: { targetType: true },
    orderBy: { targetType: "asc" },
  });
  return rows.map((r) => r.targetType);
}
