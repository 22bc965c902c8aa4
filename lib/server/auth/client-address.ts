// Which address a request came from, for per-client limits. Pure, so it is unit-tested.

/** The request header the auth route stamps with the client's address (any value a client sent is overwritten). */
export const CLIENT_ADDRESS_HEADER = "x-verity-client-address";

/**
 * The client's address. With no trusted proxy it is the connection's peer: X-Forwarded-For is
 * ignored, since anyone can send it. Behind `trustedProxies` reverse proxies that each append the
 * address they saw, it is the entry that many places from the right of X-Forwarded-For; entries
 * further left were written by the client and prove nothing.
 */
export function clientAddress({ remoteAddress, forwardedFor, trustedProxies }: { remoteAddress: string | undefined; forwardedFor: string | string[] | undefined; trustedProxies: number }): string {
  if (trustedProxies > 0 && forwardedFor) {
    const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const entry = entries[Math.max(0, entries.length - trustedProxies)];
    if (entry) return entry;
  }
  return remoteAddress ?? "unknown";
}
