import { describe, expect, it } from "vitest";

import { MIN_POSTGRES_MAJOR, unsupportedServerReason } from "./server-version";

describe("unsupportedServerReason", () => {
  it("accepts the minimum major version and anything newer", () => {
    expect(MIN_POSTGRES_MAJOR).toBe(14);
    expect(unsupportedServerReason({ versionNum: 140000, version: "14.0" })).toBeNull();
    expect(unsupportedServerReason({ versionNum: 150014, version: "15.14 (Debian 15.14-0+deb12u1)" })).toBeNull();
    expect(unsupportedServerReason({ versionNum: 180001, version: "18.1" })).toBeNull();
  });

  it("refuses an older server, naming its version and the one needed", () => {
    expect(unsupportedServerReason({ versionNum: 130016, version: "13.16 (Debian 13.16-1.pgdg120+1)" })).toBe(
      "PostgreSQL 13.16 is too old: Verity needs PostgreSQL 14 or newer. Upgrade the server, or point DATABASE_URL at a newer one (nothing was changed in the database).",
    );
    expect(unsupportedServerReason({ versionNum: 96024, version: "9.6.24" })).toMatch(
      /^PostgreSQL 9\.6\.24 is too old/,
    );
  });
});
