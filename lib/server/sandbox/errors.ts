import "server-only";

export type SandboxErrorCode =
  | "SANDBOX_UNAVAILABLE"
  | "SANDBOX_INVALID_REQUEST"
  | "SANDBOX_FAILED"
  /**
   * The isolation layer itself failed before the program started (bubblewrap exits with an error,
   * e.g. a kernel that refuses user namespaces): no run can happen here, and nothing was learnt
   * about the program.
   */
  | "SANDBOX_ISOLATION_FAILED"
  /** The caller gave up (its client went away); the program was killed. */
  | "SANDBOX_CANCELLED";

/** A run that could not happen at all (no isolation, bad request, backend down); not an outcome. */
export class SandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SandboxError";
  }
}
