import type { Tx } from "@breakwater/db";
import { type Actor, actorRef } from "../context";
import { newId } from "../ids";

export interface AuditInput {
  organizationId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before?: unknown;
  after?: unknown;
}

/** Writes one audit row inside the caller's transaction (who, what, before/after). */
export async function recordAudit(tx: Tx, actor: Actor, input: AuditInput): Promise<void> {
  const { actorType, actorId } = actorRef(actor);
  await tx.auditEvent.create({
    data: {
      id: newId("aud"),
      organizationId: input.organizationId,
      actorType,
      actorId,
      action: input.action,
      targetType: input.targetType,
      targetId: input.targetId,
      before: input.before === undefined ? undefined : (JSON.parse(JSON.stringify(input.before)) as object),
      after: input.after === undefined ? undefined : (JSON.parse(JSON.stringify(input.after)) as object),
    },
  });
}
