import { describe, expect, it } from "vitest";

import { generateMutants } from "./mutate";
import { MUTANT_VARIABLE, mutantSchema, refusedSwitches } from "./schemata";

const CPP = `int add(int a, int b) { return a + b * 2; }
bool inRange(int x, int lo, int hi) {
    if (lo <= x && x <= hi) return true;
    return false;
}
`;

describe("mutantSchema", () => {
  it("puts every mutant it can behind a switch that reads SANDBOX_MUTANT, and keeps the rest apart with a reason", () => {
    const mutants = generateMutants(CPP, "cpp", 50);
    const schema = mutantSchema(CPP, "cpp", mutants)!;
    expect(schema.source).toContain(`std::getenv("${MUTANT_VARIABLE}")`);
    for (const position of schema.positions) expect(schema.source).toContain(`verity_mutant_on(${position})`);
    expect(schema.positions.length + schema.unswitched.length).toBe(mutants.length);
    for (const { reason } of schema.unswitched) expect(reason).toMatch(/\w+ \w+/);
  });

  it("nests switches: a switch over an operator holds the switches of its operands, so each mutant is exactly its own", () => {
    const source = "int f(int a, int b) { return a + b * 2; }\n";
    const mutants = generateMutants(source, "cpp", 50);
    const times = mutants.find((mutant) => mutant.original === "*")!;
    const plus = mutants.find((mutant) => mutant.original === "+")!;
    const schema = mutantSchema(source, "cpp", mutants)!;
    expect(schema.positions).toEqual(expect.arrayContaining([times.position, plus.position]));
    // Each switch appears in both branches of the one that holds it.
    const inner = schema.source.split(`verity_mutant_on(${times.position})`).length - 1;
    expect(inner).toBe(2 * (schema.source.split(`verity_mutant_on(${plus.position})`).length - 1));
  });

  it("switches a Go comparison, and a Go literal through a generic call, never a Go division", () => {
    const source = "package main\n\nfunc Half(n int) int {\n\tif n < 0 {\n\t\treturn 0\n\t}\n\treturn n / 2\n}\n";
    const mutants = generateMutants(source, "go", 50);
    const schema = mutantSchema(source, "go", mutants)!;
    const position = (original: string) => mutants.find((mutant) => mutant.original === original)!.position;
    expect(schema.positions).toContain(position("<"));
    expect(schema.source).toContain("veritySel(");
    expect(schema.unswitched.map((mutant) => mutant.position)).toContain(position("/"));
  });

  it("leaves `return 0` unswitched where the function's declared type refuses 0, and says so", () => {
    const cases = [
      ["go", "package main\n\nfunc Name(s string) string {\n\treturn s + s\n}\n", "string"],
      ["rust", "fn name(s: &str) -> String {\n    return s.to_string() + s;\n}\n", "String"],
      ["kotlin", "fun name(s: String): String {\n    return s + s\n}\n", "String"],
      [
        "java",
        "class A {\n    public static Map<String, Integer> count(String s) {\n        return build(s, s);\n    }\n}\n",
        "Map<String, Integer>",
      ],
    ] as const;
    for (const [language, source, type] of cases) {
      const mutants = generateMutants(source, language, 50).filter((mutant) => mutant.operator === "return");
      expect(mutants, language).toHaveLength(1);
      const schema = mutantSchema(source, language, mutants)!;
      expect(schema.unswitched, language).toEqual([
        {
          position: mutants[0].position,
          reason: `its function returns ${type}, which 0 is not: a switch would not build`,
        },
      ]);
    }
    const numeric = "fn twice(n: i64) -> i64 {\n    return n * 2;\n}\n";
    const mutants = generateMutants(numeric, "rust", 50).filter((mutant) => mutant.operator === "return");
    expect(mutantSchema(numeric, "rust", mutants)!.positions).toEqual([mutants[0].position]);
  });

  it("leaves a mutant out when asked (the compiler refused it) and says why", () => {
    const mutants = generateMutants(CPP, "cpp", 8);
    const schema = mutantSchema(CPP, "cpp", mutants, new Map([[mutants[0].position, "refused"]]))!;
    expect(schema.positions).not.toContain(mutants[0].position);
    expect(schema.unswitched).toContainEqual({ position: mutants[0].position, reason: "refused" });
  });

  it("has no schema for a language that compiles nothing", () => {
    expect(mutantSchema("x = 1 + 2\n", "python", generateMutants("x = 1 + 2\n", "python"))).toBeNull();
  });
});

describe("refusedSwitches", () => {
  const program = "int f() {\n  int x = A + B;\n  return C;\n}\n";
  const schema = {
    switchTexts: new Map([
      [1, "A"],
      [2, "B"],
      [3, "C"],
    ]),
  };

  it("names the switch at an error's column, every switch on an error's line without one, and none for a note", () => {
    expect(refusedSwitches(program, "test.cpp:2:15: error: no match", schema)).toEqual([2]);
    expect(refusedSwitches(program, "test.java:2: error: bad operand", schema)).toEqual([1, 2]);
    expect(refusedSwitches(program, "test.cpp:3:10: note: candidate", schema)).toEqual([]);
  });

  it("follows rustc's arrow to the error's place, and names nothing for an error outside every switch", () => {
    expect(refusedSwitches(program, "error[E0308]: mismatched types\n --> src/main.rs:3:10\n", schema)).toEqual([3]);
    expect(refusedSwitches(program, "test.cpp:1:1: error: expected", schema)).toEqual([]);
    expect(refusedSwitches(program, "# sandbox\n./main_test.go:3:10: cannot use 0 as string value", schema)).toEqual([
      3,
    ]);
  });
});

describe("a Scala function's result switched", () => {
  it("chooses the constant or the body, with the body's own switches inside", () => {
    const source = "def sumOfSquares(xs: List[Int]): Long =\n  xs.map(x => x.toLong * x.toLong).sum\n";
    const mutants = generateMutants(source, "scala", 8);
    const schema = mutantSchema(source, "scala", mutants);
    expect(schema?.unswitched).toEqual([]);
    expect(schema?.source).toContain(
      "(if (VerityMutant.on(0)) (0) else (xs.map(x => (if (VerityMutant.on(1)) (x.toLong / x.toLong) else (x.toLong * x.toLong))).sum))",
    );
  });
});
