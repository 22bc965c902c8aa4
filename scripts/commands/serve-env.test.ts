import { describe, expect, it } from "vitest";

import { nextServerEnvironment } from "./serve-env";

const given = {
  databaseUrl: "postgresql://db/verity",
  secret: "s",
  publicUrl: "https://verity.example",
  port: 3000,
  cwd: "/srv/verity",
};

describe("the environment verity serve gives Next.js", () => {
  it("turns Next.js's telemetry off", () => {
    expect(nextServerEnvironment({ ...given, base: {} }).NEXT_TELEMETRY_DISABLED).toBe("1");
  });

  it("leaves the operator's own choice of telemetry alone", () => {
    expect(nextServerEnvironment({ ...given, base: { NEXT_TELEMETRY_DISABLED: "0" } }).NEXT_TELEMETRY_DISABLED).toBe(
      "0",
    );
  });

  it("passes the database, secret, address and peer-address preload", () => {
    const env = nextServerEnvironment({ ...given, base: { NODE_OPTIONS: "--max-old-space-size=2048", KEEP: "x" } });
    expect(env).toMatchObject({
      DATABASE_URL: "postgresql://db/verity",
      NEXTAUTH_SECRET: "s",
      NEXTAUTH_URL: "https://verity.example",
      PORT: "3000",
      KEEP: "x",
      NODE_OPTIONS: "--max-old-space-size=2048 --import=file:///srv/verity/scripts/stamp-peer-address.mjs",
    });
  });
});
