export { DEFAULT_MUTANTS, generateMutants, MAX_MUTANTS, type Mutant } from "./mutate";
export { MUTATION_OPERATORS, type MutationOperator } from "./operators";
export { isStillbornOutcome, mutantStatus, type MutantStatus, summarizeMutants } from "./score";
export { familyOf, type Family } from "./tokenize";
