import { describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER, resolveClientIp } from "./client-ip";

const headers = (peer: string | null, forwarded?: string) => {
  const h = new Headers();
  if (peer !== null) h.set(PEER_ADDRESS_HEADER, peer);
  if (forwarded !== undefined) h.set("x-forwarded-for", forwarded);
  return h;
};

describe("resolveClientIp", () => {
  it("ignores X-Forwarded-For entirely unless TRUST_PROXY is set", () => {
    expect(resolveClientIp(headers("203.0.113.7", "198.51.100.1"), 0)).toBe("203.0.113.7");
    expect(resolveClientIp(headers("203.0.113.7", "1.1.1.1, 2.2.2.2"), 0)).toBe("203.0.113.7");
    expect(resolveClientIp(headers("::ffff:203.0.113.7"), 0)).toBe("203.0.113.7");
  });

  it("with one trusted proxy takes the entry that proxy appended, not what the client wrote", () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy (the peer) appended the address it saw.
    expect(resolveClientIp(headers("10.0.0.2", "6.6.6.6, 198.51.100.9"), 1)).toBe("198.51.100.9");
    expect(resolveClientIp(headers("10.0.0.2", "198.51.100.9"), 1)).toBe("198.51.100.9");
  });

  it("counts hops from the right and stops at the leftmost entry of a short chain", () => {
    expect(resolveClientIp(headers("10.0.0.3", "6.6.6.6, 198.51.100.9, 10.0.0.2"), 2)).toBe("198.51.100.9");
    expect(resolveClientIp(headers("10.0.0.3", "198.51.100.9"), 5)).toBe("198.51.100.9");
    // No forwarded header though a proxy was promised: the peer is all there is.
    expect(resolveClientIp(headers("10.0.0.3"), 1)).toBe("10.0.0.3");
  });

  it("accepts IPv6 and bracketed addresses and refuses anything that is not an address", () => {
    expect(resolveClientIp(headers("10.0.0.2", "2001:DB8::1"), 1)).toBe("2001:db8::1");
    expect(resolveClientIp(headers("10.0.0.2", "[2001:db8::2]:443"), 1)).toBe("2001:db8::2");
    expect(resolveClientIp(headers("10.0.0.2", "evil, not-an-ip"), 1)).toBeNull();
    expect(resolveClientIp(headers("10.0.0.2", "unknown"), 1)).toBeNull();
  });

  it("knows no address without the peer written by the dashboard's server", () => {
    expect(resolveClientIp(headers(null, "198.51.100.9"), 0)).toBeNull();
    expect(resolveClientIp(headers(null, "198.51.100.9"), 1)).toBeNull();
  });
});
