// Which PostgreSQL an integration run tests against (global-setup.ts): the embedded PostgreSQL 18 by
// default; Debian's with VERITY_TEST_POSTGRES=system, the second run `npm test` makes under CI.
// A file that tests the embedded server itself starts its own, whichever run it is in: on the
// Debian run it would repeat the embedded run's test on the same embedded server, so it runs once.

/** True in the run on Debian's PostgreSQL. */
export const isSystemPostgresRun = process.env.VERITY_TEST_POSTGRES === "system";

/** The skip message of a file that tests the embedded server itself, in the Debian run ("" otherwise). */
export const EMBEDDED_ONLY = isSystemPostgresRun
  ? " (skipped on Debian's PostgreSQL: it tests the embedded server, which the embedded run tests already)"
  : "";

/**
 * The skip message, in the Debian run, of a file whose subject is not the database (a command's
 * output through pipes, builds from the package registries, the password-hashing line): what it
 * checks does not depend on PostgreSQL's version, its SQL is that of files that run on both, and it
 * is among the slowest files ("" otherwise).
 */
export const NOT_ABOUT_POSTGRES = isSystemPostgresRun
  ? " (skipped on Debian's PostgreSQL: what it checks does not depend on the server's version, and the embedded run checks it)"
  : "";
