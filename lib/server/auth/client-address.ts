// Which address a request came from, for per-client limits.
import { readConfig } from "@/lib/server/config";

/** Set on every request by scripts/stamp-peer-address.mjs, which `verity serve` preloads. */
export const PEER_ADDRESS_HEADER = "x-verity-peer-address";

/** Whether this process stamps PEER_ADDRESS_HEADER (otherwise a client could have sent it). */
export function isPeerAddressStamped(): boolean {
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
    trustedProxies: readConfig().trustedProxies,
  });
}
