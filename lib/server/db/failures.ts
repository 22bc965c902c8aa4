import "server-only";

import { AppError } from "@/lib/server/errors";

// Prisma's codes for "no connection": can't reach the server, timed out reaching it, closed the
// connection, no free connection in the pool in time.
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
// node-postgres and PostgreSQL's own: refused or reset sockets, connection exceptions (class 08),
// the server shutting down or starting up (57P01–57P03).
const PG_UNAVAILABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE", "57P01", "57P02", "57P03"]);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  // Walk the cause chain: the adapter wraps the driver's error, which wraps the socket's.
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const { code, kind, cause } = current as { code?: unknown; kind?: unknown; cause?: unknown };
    if (typeof code === "string") codes.push(code);
    if (typeof kind === "string") codes.push(kind);
    current = cause;
  }
  return codes;
}

/**
 * The expected failure behind an error from the database, or null for a real bug: an unreachable
 * database is UNAVAILABLE (503, try again), a number too large for its column is INVALID_INPUT.
 */
export function databaseFailure(error: unknown): AppError | null {
  const codes = codesOf(error);
  const isUnavailable = codes.some((code) => PRISMA_UNAVAILABLE.has(code) || PG_UNAVAILABLE.has(code) || code.startsWith("08") || code === "DatabaseNotReachable");
  if (isUnavailable || (error instanceof Error && error.name === "PrismaClientInitializationError")) {
    return new AppError("UNAVAILABLE", "The database is not reachable right now. Nothing was changed; try again in a moment.");
  }
  if (codes.includes("P2020") || codes.includes("22003")) return new AppError("INVALID_INPUT", "A number in the request is out of range.");
  return null;
}
