import { describe, expect, it } from "vitest";
import { keySlot, wireChannel } from "./pubsub";

describe("keySlot", () => {
  it("matches CLUSTER KEYSLOT, hash tags included", () => {
    expect(keySlot("foo")).toBe(12_182);
    expect(keySlot("somekey")).toBe(11_058);
    expect(keySlot("{user1000}.following")).toBe(keySlot("user1000"));
    expect(keySlot("foo{}{bar}")).toBe(keySlot("foo{}{bar}")); // empty tag: the whole key
    expect(keySlot("{bw:invalidate}")).toBe(keySlot("bw:invalidate"));
  });

  it("hash-tags channel names on a cluster only", () => {
    expect(wireChannel("bw:invalidate", false)).toBe("bw:invalidate");
    expect(wireChannel("bw:invalidate", true)).toBe("{bw:invalidate}");
  });
});
