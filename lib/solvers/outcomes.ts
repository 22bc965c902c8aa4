// Outcome names of solver runs beyond the sandbox's own (client-safe: pages show them).

/** A raw reply from which no code could be taken: stored as not solved, never run. */
export const NO_CODE = "NO_CODE";
