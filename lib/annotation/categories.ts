// The default error taxonomy, seeded into every new campaign and editable per campaign.

export type CategoryDefinition = {
  key: string;
  label: string;
  description: string;
  invalidating: boolean;
  criticRule: string | null;
};

export const DEFAULT_CATEGORIES: readonly CategoryDefinition[] = [
  {
    key: "statement-incomplete",
    label: "Statement incomplete",
    description: "Required behaviour or an edge-case output is missing from the statement.",
    invalidating: true,
    criticRule: null,
  },
  {
    key: "name-mismatch",
    label: "Name mismatch",
    description: "Function/class names or signatures differ between statement and tests.",
    invalidating: true,
    criticRule: "Naming/Signature Inconsistency",
  },
  {
    key: "statement-ambiguous",
    label: "Statement ambiguous",
    description: "The statement allows several readings and the tests pick one.",
    invalidating: true,
    criticRule: null,
  },
  {
    key: "wrong-expected-output",
    label: "Wrong expected output",
    description: "A test expects a value that contradicts the statement.",
    invalidating: true,
    criticRule: null,
  },
  {
    key: "irrelevant-requirement",
    label: "Irrelevant requirement",
    description: "Tests check behaviour the statement does not ask for.",
    invalidating: true,
    criticRule: "Irrelevant Requirements",
  },
  {
    key: "incorrect-test-target",
    label: "Incorrect test target",
    description: "Tests exercise something other than the function the statement asks for.",
    invalidating: true,
    criticRule: "Incorrect Test Target",
  },
  {
    key: "nondeterministic-test",
    label: "Non-deterministic test",
    description: "The outcome depends on randomness, time or ordering.",
    invalidating: true,
    criticRule: "Randomness/Non-reproducible",
  },
  {
    key: "precision",
    label: "Precision",
    description: "Floating-point results compared exactly or with an unstated tolerance.",
    invalidating: true,
    criticRule: "Improper Precision Handling",
  },
  {
    key: "exception-swallowing",
    label: "Exception swallowing",
    description: "Failures are caught and ignored, so the test cannot fail.",
    invalidating: true,
    criticRule: "Exception Swallowing",
  },
  {
    key: "non-executable-test",
    label: "Non-executable test",
    description: "The test cannot run: syntax error, undefined helper, missing import.",
    invalidating: true,
    criticRule: "Non-executable Tests",
  },
  {
    key: "solution-wrong",
    label: "Solution wrong",
    description: "The canonical solution does not do what the statement asks.",
    invalidating: true,
    criticRule: null,
  },
  {
    key: "environment-dependence",
    label: "Environment dependence",
    description: "Needs network, files or libraries the sandbox does not have.",
    invalidating: true,
    criticRule: null,
  },
  {
    // Worse than weak coverage: the tests would pass a wrong solution, so the record cannot score one.
    key: "weak-tests",
    label: "Weak tests",
    description: "The tests accept wrong solutions: they check too little (e.g. one trivial case) to catch a bug.",
    invalidating: true,
    criticRule: null,
  },
  {
    key: "weak-coverage",
    label: "Weak coverage",
    description: "Valid, but the tests miss important cases.",
    invalidating: false,
    criticRule: null,
  },
  {
    key: "other",
    label: "Other",
    description: "Another problem; say which in the note.",
    invalidating: true,
    criticRule: "Other Issues",
  },
];
