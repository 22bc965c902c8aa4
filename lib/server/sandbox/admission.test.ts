import { describe, expect, it } from "vitest";

import { RunAdmission } from "./admission";

describe("RunAdmission", () => {
  it("caps the runs one user has going, without holding back anyone else", () => {
    const admission = new RunAdmission({ perUser: 2, total: 10 });
    const release = admission.admit("ann");
    admission.admit("ann");
    expect(() => admission.admit("ann")).toThrow("You already have 2 runs going");
    expect(() => admission.admit("bob")).not.toThrow();
    release();
    expect(() => admission.admit("ann")).not.toThrow();
  });

  it("refuses everyone once the queue is full, and admits again when a run ends", () => {
    const admission = new RunAdmission({ perUser: 5, total: 3 });
    const releases = [admission.admit("a"), admission.admit("b"), admission.admit("c")];
    expect(() => admission.admit("d")).toThrow("The sandbox is busy");
    releases[0]();
    // Releasing twice frees one place, not two.
    releases[0]();
    admission.admit("d");
    expect(() => admission.admit("e")).toThrow("The sandbox is busy");
  });
});
