import { describe, expect, it } from "vitest";

import { formatDuration, formatRate, jobPace } from "./pace";

const start = new Date("2026-12-07T02:00:00Z");
const after = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe("jobPace", () => {
  it("counts items per minute since the start and the time left at that rate", () => {
    // 30 of 120 in 2 minutes: 15 a minute, 90 left → 6 minutes.
    expect(
      jobPace({ status: "RUNNING", done: 30, total: 120, startedAt: start, finishedAt: null, now: after(120) }),
    ).toEqual({
      perMinute: 15,
      etaSeconds: 360,
    });
  });

  it("says nothing before anything was done or within the first seconds", () => {
    expect(
      jobPace({ status: "RUNNING", done: 0, total: 10, startedAt: start, finishedAt: null, now: after(600) }),
    ).toEqual({
      perMinute: null,
      etaSeconds: null,
    });
    expect(
      jobPace({ status: "RUNNING", done: 3, total: 10, startedAt: start, finishedAt: null, now: after(2) }),
    ).toEqual({
      perMinute: null,
      etaSeconds: null,
    });
  });

  it("measures a finished job up to its end, and gives it no ETA", () => {
    const pace = jobPace({
      status: "SUCCEEDED",
      done: 10,
      total: 10,
      startedAt: start,
      finishedAt: after(60),
      now: after(3600),
    });
    expect(pace).toEqual({ perMinute: 10, etaSeconds: null });
  });

  it("gives a job that finished within seconds the rate of its whole run", () => {
    // 6 records in 3 s: 120 a minute (the Jobs page showed no rate for such a batch).
    const pace = jobPace({
      status: "SUCCEEDED",
      done: 6,
      total: 6,
      startedAt: start,
      finishedAt: after(3),
      now: after(10),
    });
    expect(pace).toEqual({ perMinute: 120, etaSeconds: null });
  });

  it("gives a paused job a rate but no ETA (it is not moving)", () => {
    const pace = jobPace({ status: "PAUSED", done: 5, total: 10, startedAt: start, finishedAt: null, now: after(60) });
    expect(pace).toEqual({ perMinute: 5, etaSeconds: null });
  });

  it("rounds the ETA up to whole seconds and never goes below nothing left", () => {
    expect(
      jobPace({ status: "RUNNING", done: 7, total: 10, startedAt: start, finishedAt: null, now: after(60) }).etaSeconds,
    ).toBe(Math.ceil((3 / 7) * 60));
    expect(
      jobPace({ status: "RUNNING", done: 12, total: 10, startedAt: start, finishedAt: null, now: after(60) })
        .etaSeconds,
    ).toBeNull();
  });
});

describe("formatDuration and formatRate", () => {
  it("reads as people say it", () => {
    expect([45, 59.4, 720, 3 * 3600 + 20 * 60, 7200, 52 * 3600, 48 * 3600].map(formatDuration)).toEqual([
      "45 s",
      "59 s",
      "12 min",
      "3 h 20 min",
      "2 h",
      "2 d 4 h",
      "2 d",
    ]);
    expect(formatRate(1234.4, "records")).toBe("1,234 records/min");
    expect(formatRate(0.2, "records")).toBe("12 records/h");
    expect(formatRate(0.001, "bytes")).toBe("< 1 bytes/h");
  });
});
