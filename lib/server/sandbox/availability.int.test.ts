// Sandbox availability is stored in PostgreSQL: every app instance shows the last probe any of them
// made, probes again once it is stale (soon when a language cannot run), and "check again" on one
// instance renews the answer for all.
import { beforeEach, describe, expect, it } from "vitest";

import { LANGUAGES } from "@/lib/records/languages";
import { prisma } from "@/lib/server/db/client";
import { storeSandboxProbes } from "@/lib/server/sandbox/probe-store";

import { languageAvailability, lastProbeAt, probeAgain, type Availability } from "./availability";
import { getSandboxRouter } from "./index";

/** What another instance stored: every language can run, on the route it has here. */
function everythingRuns(): Availability {
  const router = getSandboxRouter();
  return Object.fromEntries(
    LANGUAGES.map((language) => [language, { available: true, backend: router.backendFor(language) }]),
  ) as Availability;
}

beforeEach(async () => {
  await prisma().sandboxProbe.deleteMany({});
});

describe("shared sandbox availability", () => {
  it("answers with the probe another instance stored while it is fresh", async () => {
    await storeSandboxProbes(everythingRuns());
    // No Swift toolchain here: only the stored answer says it can run.
    expect((await languageAvailability()).swift.available).toBe(true);
  });

  it("probes again once a stored 'cannot run' is older than the short interval, and stores the new answer", async () => {
    await storeSandboxProbes({
      ...everythingRuns(),
      python: { available: false, backend: "local", reason: "stored elsewhere" },
    });
    expect((await languageAvailability()).python).toMatchObject({ available: false, reason: "stored elsewhere" });
    await prisma().sandboxProbe.updateMany({ data: { probedAt: new Date(Date.now() - 11_000) } });
    const fresh = await languageAvailability();
    expect(fresh.swift.available).toBe(false);
    expect(
      await prisma().sandboxProbe.findUnique({ where: { language: "swift" }, select: { available: true } }),
    ).toEqual({ available: false });
    expect((await lastProbeAt())?.getTime()).toBeGreaterThan(Date.now() - 5_000);
  });

  it("probes afresh for every instance on 'check again'", async () => {
    await storeSandboxProbes(everythingRuns());
    await probeAgain();
    expect(
      await prisma().sandboxProbe.findUnique({ where: { language: "swift" }, select: { available: true } }),
    ).toEqual({ available: false });
    expect((await languageAvailability()).swift.available).toBe(false);
  });
});
