// Which address a request came from, for per-client limits.
import { isIPv4, isIPv6 } from "node:net";

import { config } from "@/lib/server/config";

/** Set on every request by scripts/stamp-peer-address.mjs, which `verity serve` preloads. */
export const PEER_ADDRESS_HEADER = "x-verity-peer-address";

/** Whether this process stamps PEER_ADDRESS_HEADER (otherwise a client could have sent it). */
function isPeerAddressStamped(): boolean {
  return (globalThis as Record<symbol, unknown>)[Symbol.for("verity.peer-address-stamped")] === true;
}

/**
 * The client's address. With no trusted proxy it is the connection's peer: X-Forwarded-For is
 * ignored, since anyone can send it. Behind `trustedProxies` reverse proxies that each append the
 * address they saw, it is the entry that many places from the right of X-Forwarded-For; entries
 * further left were written by the client and prove nothing. Pure, so it is unit-tested.
 */
export function clientAddress({
  peerAddress,
  forwardedFor,
  trustedProxies,
}: {
  peerAddress: string | undefined;
  forwardedFor: string | undefined;
  trustedProxies: number;
}): string {
  if (trustedProxies > 0 && forwardedFor) {
    const entries = forwardedFor
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const entry = entries[Math.max(0, entries.length - trustedProxies)];
    if (entry) return entry;
  }
  return peerAddress || "unknown";
}

/**
 * The key per-address limits count by: an IPv4 address as it is; an IPv6 address by its /64, the
 * network one subscriber is given (they can pick any of its 2^64 addresses, so one address proves
 * nothing); an IPv4-mapped IPv6 address as its IPv4. Anything else ("unknown") as it is. Pure.
 */
export function addressBucket(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1];
  return `${ipv6Groups(bare).slice(0, 4).join(":")}::/64`;
}

// The eight 16-bit groups of a valid IPv6 address, in lowercase hex without leading zeros.
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].map((group) => parseInt(group, 16).toString(16));
}

let hasWarnedUnstamped = false;

/** The client address of a request, from its headers (the stamped peer address, X-Forwarded-For) and VERITY_TRUST_PROXY. */
export function requestAddress(headers: Record<string, string | undefined>): string {
  const isStamped = isPeerAddressStamped();
  if (!isStamped && !hasWarnedUnstamped) {
    hasWarnedUnstamped = true;
    console.warn(
      "Sign-in limits cannot tell clients apart: start Verity with `npm start` (verity serve), which records each request's address.",
    );
  }
  return clientAddress({
    peerAddress: isStamped ? headers[PEER_ADDRESS_HEADER] : undefined,
    forwardedFor: headers["x-forwarded-for"],
    trustedProxies: config().trustedProxies,
  });
}
