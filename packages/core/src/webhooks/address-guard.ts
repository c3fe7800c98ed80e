import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { isIP, type LookupFunction } from "node:net";

/**
 * Which webhook receivers may be reached. Webhook URLs are chosen by tenants, and the built-in
 * sender (and "send test", from the dashboard process) POSTs to them from inside the deployment:
 * without a guard an endpoint at http://127.0.0.1:6379/ or http://169.254.169.254/ turns the
 * sender into a probe of the private network. The guard sits in the agents' connect path (the
 * DNS lookup of every new connection, and IP literals before connecting), so a name that
 * resolves to a public address when saved and to a private one when sent (DNS rebinding) is
 * refused too.
 */

/** Why an address is not a public unicast one; null when it is. */
export type AddressClass =
  | "unspecified"
  | "loopback"
  | "private"
  | "shared"
  | "link-local"
  | "unique-local"
  | "multicast"
  | "broadcast"
  | "reserved";

type V4Range = [base: number, bits: number, cls: AddressClass];

const v4 = (a: string): number => {
  const p = a.split(".").map(Number);
  return (((p[0]! << 24) | (p[1]! << 16) | (p[2]! << 8) | p[3]!) >>> 0) as number;
};

const V4_RANGES: V4Range[] = [
  [v4("255.255.255.255"), 32, "broadcast"],
  [v4("0.0.0.0"), 8, "unspecified"],
  [v4("127.0.0.0"), 8, "loopback"],
  [v4("10.0.0.0"), 8, "private"],
  [v4("172.16.0.0"), 12, "private"],
  [v4("192.168.0.0"), 16, "private"],
  [v4("100.64.0.0"), 10, "shared"],
  [v4("169.254.0.0"), 16, "link-local"],
  [v4("192.0.0.0"), 24, "reserved"],
  [v4("192.0.2.0"), 24, "reserved"],
  [v4("198.18.0.0"), 15, "reserved"],
  [v4("198.51.100.0"), 24, "reserved"],
  [v4("203.0.113.0"), 24, "reserved"],
  [v4("224.0.0.0"), 4, "multicast"],
  [v4("240.0.0.0"), 4, "reserved"],
];

function classifyV4(addr: number): AddressClass | null {
  for (const [base, bits, cls] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((addr & mask) >>> 0 === base) return cls;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (dotted-quad tails and zone ids handled). */
function v6Groups(address: string): number[] | null {
  let a = address.toLowerCase();
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (tail) {
    if (isIP(tail[1]!) !== 4) return null;
    const n = v4(tail[1]!);
    a = `${a.slice(0, -tail[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = a.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const groups = [...head, ...new Array<number>(Math.max(0, fill)).fill(0), ...rest];
  if (groups.length !== 8 || groups.some((g) => !Number.isFinite(g) || g < 0 || g > 0xffff)) return null;
  return groups;
}

function classifyV6(address: string): AddressClass | null {
  const g = v6Groups(address);
  if (!g) return "reserved";
  const embedded = (hi: number, lo: number) => classifyV4((((hi << 16) | lo) >>> 0) as number);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  // IPv4-mapped ::ffff:a.b.c.d (also written ::ffff:7f00:1): the IPv4 rules apply.
  if (zeros(0, 5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!);
  // IPv4-compatible ::a.b.c.d (deprecated) and the NAT64 prefix 64:ff9b::/96 embed an IPv4 address too.
  if (zeros(0, 6)) return embedded(g[6]!, g[7]!) ?? "reserved";
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embedded(g[6]!, g[7]!);
  // 6to4 2002::/16 carries the IPv4 address in its second and third groups.
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!);
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return "unique-local";
  if ((first & 0xffc0) === 0xfe80) return "link-local";
  if ((first & 0xffc0) === 0xfec0) return "private"; // site-local, deprecated but still routed privately
  if ((first & 0xff00) === 0xff00) return "multicast";
  if (first === 0x2001 && g[1] === 0x0db8) return "reserved"; // documentation
  if (first === 0x0100 && zeros(1, 4)) return "reserved"; // discard-only 100::/64
  return null;
}

/** The class of a literal IP address (IPv4 or IPv6); null for public unicast; "reserved" if unparsable. */
export function classifyAddress(address: string): AddressClass | null {
  const family = isIP(address.replace(/%.*$/, ""));
  if (family === 4) return classifyV4(v4(address));
  if (family === 6) return classifyV6(address);
  return "reserved";
}

const DESCRIPTION: Record<AddressClass, string> = {
  unspecified: "an unspecified address",
  loopback: "a loopback address",
  private: "a private-network address",
  shared: "a carrier-grade NAT address",
  "link-local": "a link-local address",
  "unique-local": "a unique-local address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
};

/** A connection the guard refused; its message is what the attempt records. */
export class AddressRefusedError extends Error {
  readonly code = "EADDRREFUSED";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly addressClass: AddressClass,
  ) {
    super(
      `refused: ${host === address ? address : `${host} resolves to ${address}`}, ${DESCRIPTION[addressClass]} ` +
        "(WEBHOOK_ALLOW_PRIVATE_URLS=true allows private networks)",
    );
    this.name = "AddressRefusedError";
  }
}

/** The refusal for connecting to `address` (reached through `host`), or null when it is allowed. */
export function checkAddress(host: string, address: string): AddressRefusedError | null {
  const cls = classifyAddress(address);
  return cls ? new AddressRefusedError(host, address, cls) : null;
}

/** The callback of a lookup: (err), (null, address, family) or, with `all`, (null, addresses). */
type LookupCallback = (err: Error | null, address?: string | LookupAddress[], family?: number) => void;

/** A resolver with dns.lookup's `all: true` shape (tests stub it; production uses dns.lookup). */
export type Resolve = (hostname: string, family: number) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname, family) =>
  new Promise((resolve, reject) => {
    const opts: LookupAllOptions = { all: true, family: family === 4 || family === 6 ? family : 0 };
    dnsLookup(hostname, opts, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/**
 * A `lookup` for net.connect that resolves with `resolve` and fails the connection when any
 * address of the name is not public (a name with one public and one private record is refused
 * too: the socket may pick either). Answers in whichever shape the caller asked for.
 */
export function guardedLookup(resolve: Resolve = systemResolve): LookupFunction {
  return ((
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: LookupCallback,
  ) => {
    const family = typeof options.family === "number" ? options.family : 0;
    resolve(hostname, family).then(
      (addresses) => {
        if (addresses.length === 0) {
          const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
          return callback(err);
        }
        for (const a of addresses) {
          const refused = checkAddress(hostname, a.address);
          if (refused) return callback(refused);
        }
        if (options.all) return callback(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) => callback(err),
    );
  }) as unknown as LookupFunction;
}

type CreateConnection = (
  options: { host?: string | null },
  cb: (err: Error | null, socket?: unknown) => void,
) => unknown;

/** IP literals never go through `lookup`: the agents check them before connecting. */
function refuseLiteral(host: string | null | undefined): AddressRefusedError | null {
  const h = (host ?? "").replace(/^\[|\]$/g, "");
  return isIP(h) ? checkAddress(h, h) : null;
}

/** Wraps an agent's createConnection so an IP-literal host is checked before any socket opens. */
function guardLiterals<A extends HttpAgent>(agent: A): A {
  const target = agent as unknown as { createConnection: CreateConnection };
  const connect = target.createConnection.bind(agent);
  target.createConnection = (options, cb) => {
    const refused = refuseLiteral(options.host);
    if (refused) {
      // http.Agent passes the error on to the request's 'error' event.
      cb(refused);
      return undefined;
    }
    return connect(options, cb);
  };
  return agent;
}

export interface WebhookAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * An idle kept-alive socket is closed after this long: shorter than common servers' keep-alive
 * timeouts (Node's 5 s), so a reused socket is rarely one the receiver is closing at that moment.
 */
export const KEEP_ALIVE_IDLE_MS = 4_000;
/** Idle sockets kept per receiver; matches the most attempts one endpoint runs at once. */
const MAX_FREE_SOCKETS_PER_RECEIVER = 64;

const guarded = new WeakMap<Resolve, WebhookAgents>();
const open = new WeakMap<Resolve, WebhookAgents>();

/**
 * The agents webhook requests go through. Without `allowPrivate` every new connection is checked
 * (lookup and literals); with it, connections go anywhere (self-hosters whose receivers live on a
 * private network, test suites). Connections are kept alive per receiver (host and port), which
 * is what lets a backlog drain at the receiver's pace instead of a TCP (and TLS) handshake per
 * message. A kept socket stays connected to the address that was checked when it opened, so
 * reusing it never reaches anything new; it is closed after KEEP_ALIVE_IDLE_MS idle, so a name
 * re-pointed elsewhere is followed (and checked) within seconds.
 */
export function webhookAgents(allowPrivate: boolean, resolve: Resolve = systemResolve): WebhookAgents {
  const cache = allowPrivate ? open : guarded;
  let agents = cache.get(resolve);
  if (!agents) {
    const lookup = allowPrivate
      ? ((resolve === systemResolve ? dnsLookup : plainLookup(resolve)) as LookupFunction)
      : guardedLookup(resolve);
    const pool = {
      keepAlive: true,
      timeout: KEEP_ALIVE_IDLE_MS,
      maxFreeSockets: MAX_FREE_SOCKETS_PER_RECEIVER,
      scheduling: "lifo" as const,
      lookup,
    };
    agents = allowPrivate
      ? { http: new HttpAgent(pool), https: new HttpsAgent(pool) }
      : { http: guardLiterals(new HttpAgent(pool)), https: guardLiterals(new HttpsAgent(pool)) };
    cache.set(resolve, agents);
  }
  return agents;
}

/** A lookup from a Resolve, with no checks (a stubbed resolver while private addresses are allowed). */
function plainLookup(resolve: Resolve): LookupFunction {
  return ((
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: LookupCallback,
  ) => {
    const family = typeof options.family === "number" ? options.family : 0;
    resolve(hostname, family).then(
      (addresses) =>
        options.all ? callback(null, addresses) : callback(null, addresses[0]?.address, addresses[0]?.family),
      (err: Error) => callback(err),
    );
  }) as unknown as LookupFunction;
}
