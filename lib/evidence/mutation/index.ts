export { DEFAULT_MUTANTS, generateMutants, MAX_MUTANTS } from "./mutate";
export { isStillbornOutcome, mutantStatus, type MutantStatus, summarizeMutants } from "./score";
