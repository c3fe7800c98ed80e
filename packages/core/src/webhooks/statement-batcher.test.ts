import { describe, expect, it } from "vitest";
import { StatementBatcher } from "./statement-batcher";

describe("StatementBatcher", () => {
  it("runs what arrives while a statement is in flight as one batch, each caller getting its own result", async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const b = new StatementBatcher<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items.map((i) => i * 10);
      },
      { maxBatch: 3, maxConcurrent: 1 },
    );
    const first = b.submit(1);
    await new Promise((r) => setTimeout(r, 0));
    // The first statement is in flight: these wait and go together, at most three at a time.
    const rest = [2, 3, 4, 5].map((i) => b.submit(i));
    release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it("a failed statement fails each of its callers, and the next batch runs", async () => {
    let calls = 0;
    const b = new StatementBatcher<string, string>(
      async (items) => {
        calls++;
        if (items.includes("bad")) throw new Error("statement failed");
        return items;
      },
      { maxBatch: 10, maxConcurrent: 1 },
    );
    const results = await Promise.allSettled([b.submit("a"), b.submit("bad")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await b.submit("c")).toBe("c");
    expect(calls).toBe(2);
  });
});
