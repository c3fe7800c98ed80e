import type { LookupAddress } from "node:dns";
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import {
  AddressRefusedError,
  classifyAddress,
  guardedLookup,
  type Resolve,
  webhookAgents,
} from "./address-guard";

const TABLE: [address: string, expected: string | null][] = [
  // IPv4
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["172.15.255.255", null],
  ["172.32.0.0", null],
  ["192.168.0.1", "private"],
  ["192.168.255.255", "private"],
  ["169.254.169.254", "link-local"],
  ["100.64.0.1", "shared"],
  ["100.127.255.255", "shared"],
  ["100.63.255.255", null],
  ["100.128.0.0", null],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.2.10", "reserved"],
  ["8.8.8.8", null],
  ["1.1.1.1", null],
  ["93.184.216.34", null],
  // IPv6
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["fc00::1", "unique-local"],
  ["fd12:3456:789a::1", "unique-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf:ffff::1", "link-local"],
  ["ff02::1", "multicast"],
  ["ff00::", "multicast"],
  ["2001:db8::1", "reserved"],
  ["2606:4700:4700::1111", null],
  ["2001:4860:4860::8888", null],
  // IPv4-mapped, dotted and hex forms, and other IPv4-embedding forms
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::FFFF:7F00:0001", "loopback"],
  ["0:0:0:0:0:ffff:10.1.2.3", "private"],
  ["::ffff:a01:203", "private"],
  ["::ffff:169.254.169.254", "link-local"],
  ["::ffff:a9fe:a9fe", "link-local"],
  ["::ffff:8.8.8.8", null],
  ["::ffff:808:808", null],
  ["::127.0.0.1", "loopback"],
  ["64:ff9b::7f00:1", "loopback"],
  ["64:ff9b::808:808", null],
  ["2002:7f00:1::", "loopback"],
  ["2002:c0a8:101::1", "private"],
  // not an address at all
  ["localhost", "reserved"],
  ["", "reserved"],
];

describe("classifyAddress", () => {
  it.each(TABLE)("%s → %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

/** A resolver that answers from a table and records what it was asked; no DNS, no sockets. */
function stubResolve(answers: Record<string, string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const fn = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    const a = answers[hostname];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return a.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(fn, { asked });
}

function lookupAll(lookup: ReturnType<typeof guardedLookup>, host: string) {
  return new Promise<LookupAddress[]>((resolve, reject) =>
    (lookup as unknown as (h: string, o: object, cb: (e: Error | null, a: LookupAddress[]) => void) => void)(
      host,
      { all: true },
      (err, a) => (err ? reject(err) : resolve(a)),
    ),
  );
}

function lookupOne(lookup: ReturnType<typeof guardedLookup>, host: string) {
  return new Promise<string>((resolve, reject) =>
    (lookup as unknown as (h: string, o: object, cb: (e: Error | null, a: string) => void) => void)(
      host,
      { family: 0 },
      (err, a) => (err ? reject(err) : resolve(a)),
    ),
  );
}

describe("guardedLookup", () => {
  const resolve = stubResolve({
    "public.example": ["93.184.216.34", "2606:4700:4700::1111"],
    "rebind.example": ["127.0.0.1"],
    "metadata.example": ["169.254.169.254"],
    "mixed.example": ["93.184.216.34", "10.0.0.5"],
    "mapped.example": ["::ffff:7f00:1"],
    "ula.example": ["fd00::1"],
  });
  const lookup = guardedLookup(resolve);

  it("passes public addresses through in both callback shapes", async () => {
    expect((await lookupAll(lookup, "public.example")).map((a) => a.address)).toEqual([
      "93.184.216.34",
      "2606:4700:4700::1111",
    ]);
    expect(await lookupOne(lookup, "public.example")).toBe("93.184.216.34");
  });

  it.each([
    ["rebind.example", "127.0.0.1", "loopback"],
    ["metadata.example", "169.254.169.254", "link-local"],
    ["mixed.example", "10.0.0.5", "private"],
    ["mapped.example", "::ffff:7f00:1", "loopback"],
    ["ula.example", "fd00::1", "unique-local"],
  ])("refuses %s (resolves to %s, %s)", async (host, address, cls) => {
    const err = await lookupAll(lookup, host).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect(err).toMatchObject({ host, address, addressClass: cls });
    expect((err as Error).message).toContain(`${host} resolves to ${address}`);
    await expect(lookupOne(lookup, host)).rejects.toBeInstanceOf(AddressRefusedError);
  });

  it("passes resolver errors through", async () => {
    await expect(lookupAll(lookup, "nowhere.example")).rejects.toMatchObject({ code: "ENOTFOUND" });
  });
});

describe("webhookAgents", () => {
  // Requests to addresses that are refused never open a socket, so none of these leave the machine.
  const post = (url: string, agent: import("node:http").Agent) =>
    new Promise<Error>((resolve, reject) => {
      const req = request(url, { method: "POST", agent }, () => reject(new Error("answered")));
      req.on("error", resolve);
      req.end();
    });

  it.each([
    "http://10.1.2.3:9/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]:9/",
    "http://[fe80::1]:9/",
    "http://[::ffff:127.0.0.1]:9/",
    "http://0.0.0.0:9/",
  ])("refuses the IP literal of %s before connecting", async (url) => {
    const resolve = stubResolve({});
    const err = await post(url, webhookAgents(false, resolve).http);
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect(resolve.asked).toEqual([]);
  });

  it("refuses a name whose lookup answers a private address, at connect time", async () => {
    const resolve = stubResolve({ "internal.example": ["192.168.1.10"] });
    const err = await post("http://internal.example:9/", webhookAgents(false, resolve).http);
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect(resolve.asked).toEqual(["internal.example"]);
  });
});
