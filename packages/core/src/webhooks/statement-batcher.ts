/**
 * Group commit for the webhook sender's statements. Every delivery runs the same few statements
 * (claim, record the attempt, settle the outbox row); under a backlog hundreds of deliveries are
 * at the same step at once. A batcher runs one statement for all of them: items submitted while
 * `maxConcurrent` runs of the statement are in flight wait and go together in the next one (up to
 * `maxBatch`), so an idle sender pays one round trip per step as before and a busy one pays one
 * per batch. Each caller still gets its own answer, and its own error when the statement fails.
 */
export class StatementBatcher<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (err: unknown) => void }[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly opts: { maxBatch: number; maxConcurrent: number },
  ) {}

  /** Runs `item` in the next statement of this kind; resolves with its own result. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // Callers that submit in the same tick (a Promise.all over deliveries) share one statement.
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.running < this.opts.maxConcurrent && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.running++;
      this.run(batch.map((b) => b.item))
        .then(
          (outs) => {
            for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outs[i] as O);
          },
          (err: unknown) => {
            for (const b of batch) b.reject(err);
          },
        )
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
