import { z } from "zod";
import type { Deps } from "../context";
import { webhookJobPriority } from "./record-webhook-event";

export const sweepWebhookOutboxInput = z.object({
  /** Rows younger than this are left to the enqueue that follows their commit. */
  graceMs: z.number().int().min(0).default(5_000),
  /** Stop after this many rows; the next sweep continues. */
  limit: z.number().int().min(1).max(100_000).default(5_000),
  now: z.date().optional(),
});

/**
 * Makes sure every undelivered outbox row that is due has its delivery job (jobId = event id) in
 * the queue: re-adds jobs a crash, a failed enqueue or a Redis restart lost. Never creates a second
 * job for an event that still has one.
 */
export async function sweepWebhookOutbox(
  deps: Deps,
  raw: z.input<typeof sweepWebhookOutboxInput> = {},
): Promise<{ checked: number; added: number; replaced: number }> {
  const input = sweepWebhookOutboxInput.parse(raw);
  if (!deps.jobs) throw new Error("sweepWebhookOutbox needs deps.jobs");
  const jobs = deps.jobs;
  const now = input.now ?? new Date();
  const before = new Date(now.getTime() - input.graceMs);
  let checked = 0;
  let added = 0;
  let replaced = 0;
  let cursor: string | undefined;

  while (checked < input.limit) {
    const rows = await deps.db.webhookOutbox.findMany({
      // Rows whose next attempt is still ahead are not looked at: if their job was lost, they are
      // found once due, which is when the job would have run anyway.
      where: {
        completedAt: null,
        createdAt: { lt: before },
        OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lt: before } }],
        ...(cursor ? { eventId: { gt: cursor } } : {}),
      },
      orderBy: { eventId: "asc" },
      take: Math.min(500, input.limit - checked),
      select: { eventId: true, nextAttemptAt: true, event: { select: { type: true } } },
    });
    if (rows.length === 0) break;
    cursor = rows[rows.length - 1]?.eventId;
    checked += rows.length;
    // Bounded parallelism: one Redis round trip per row, 50 in flight.
    for (let i = 0; i < rows.length; i += 50) {
      const results = await Promise.all(
        rows.slice(i, i + 50).map((r) =>
          jobs.ensure(
            "webhook-deliver",
            { eventId: r.eventId },
            {
              jobId: r.eventId,
              delayMs: Math.max(0, (r.nextAttemptAt?.getTime() ?? 0) - now.getTime()),
              priority: webhookJobPriority(r.event.type),
            },
          ),
        ),
      );
      added += results.filter((x) => x === "added").length;
      replaced += results.filter((x) => x === "replaced").length;
    }
  }
  if (added + replaced > 0)
    deps.log.info({ checked, added, replaced }, "outbox sweep re-enqueued deliveries");
  return { checked, added, replaced };
}
