export { DEFAULT_MUTANTS, generateMutants, MAX_MUTANTS } from "./mutate";
export { isFullRunMoot, mutantStatus, type MutantStatus, summarizeMutants } from "./score";
