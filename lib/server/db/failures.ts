import "server-only";

import { AppError } from "@/lib/server/errors";

// Prisma's codes for "no connection": can't reach the server, timed out reaching it, closed the
// connection, no free connection in the pool in time.
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
// node-postgres and PostgreSQL's own: refused or reset sockets, connection exceptions (class 08),
// the server shutting down or starting up (57P01–57P03).
// Also the adapter's names for them (its error "kind").
const SOCKET_MISSING = "ENOENT:connect";
const PG_UNAVAILABLE = new Set([
  SOCKET_MISSING,
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);

type ErrorShape = {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

/** Every code along the error's chain: Prisma's, the adapter's "kind", PostgreSQL's SQLSTATE, the socket's. */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  // Prisma keeps the adapter's error under meta.driverAdapterError, which keeps the driver's as cause.
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 6; depth++) {
    const { code, kind, originalCode, cause, meta, syscall, message } = current as ErrorShape;
    for (const value of [code, kind, originalCode]) if (typeof value === "string") codes.push(value);
    // A unix socket that is not there (the embedded PostgreSQL stopped) fails its connect with
    // ENOENT (Prisma passes on only the code and "connect ENOENT <path>"); any other ENOENT (a
    // missing file) is not about the database.
    const isConnect = syscall === "connect" || (typeof message === "string" && /\bconnect ENOENT\b/.test(message));
    if (code === "ENOENT" && isConnect) codes.push(SOCKET_MISSING);
    current = meta?.driverAdapterError ?? cause;
  }
  return codes;
}

/**
 * The expected failure behind an error from the database, or null for a real bug: an unreachable
 * database is UNAVAILABLE (503, try again); a unique name taken by a simultaneous request is
 * CONFLICT (409); a full disk is INSUFFICIENT_STORAGE (507); a number too large for its column, or
 * text with a NUL character, is INVALID_INPUT.
 */
export function databaseFailure(error: unknown): AppError | null {
  const codes = codesOf(error);
  const isUnavailable = codes.some(
    (code) => PRISMA_UNAVAILABLE.has(code) || PG_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code),
  );
  if (isUnavailable || (error instanceof Error && error.name === "PrismaClientInitializationError")) {
    return new AppError(
      "UNAVAILABLE",
      "The database is not reachable right now. Nothing was changed; try again in a moment.",
    );
  }
  // A full disk: PostgreSQL could not extend a file (53100), or this process could not write one
  // (ENOSPC). Nothing was written (the statement failed whole); the operator must free space.
  if (codes.includes("53100") || codes.includes("ENOSPC"))
    return new AppError(
      "INSUFFICIENT_STORAGE",
      "The server's disk is full, so nothing was saved. Tell whoever runs Verity to free some space, then try again.",
    );
  // Two requests creating (or renaming to) the same unique name at once: the check before the write
  // passed for both, and the loser's insert hits the unique index.
  if (codes.includes("P2002") || codes.includes("23505") || codes.includes("UniqueConstraintViolation"))
    return new AppError(
      "CONFLICT",
      "Another change took this name (or key) a moment ago. Nothing was changed; choose another or reload.",
    );
  if (codes.includes("P2020") || codes.includes("22003"))
    return new AppError("INVALID_INPUT", "A number in the request is out of range.");
  // PostgreSQL text cannot hold a NUL character (22021, or 22P05 when converting from \u0000).
  if (codes.includes("22021") || codes.includes("22P05"))
    return new AppError("INVALID_INPUT", "The request holds a NUL character, which text cannot contain.");
  return null;
}
