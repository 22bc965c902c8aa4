import { describe, expect, it } from "vitest";

import { externalProvidersFromEnv } from "./providers";

describe("externalProvidersFromEnv", () => {
  it("turns nothing on without variables", () => {
    expect(externalProvidersFromEnv({})).toEqual([]);
  });

  it("turns GitHub on with both variables", () => {
    expect(externalProvidersFromEnv({ GITHUB_ID: "id", GITHUB_SECRET: "s" })).toEqual([
      { kind: "github", clientId: "id", clientSecret: "s" },
    ]);
  });

  it("turns OIDC on, trims the issuer's trailing slash and labels it", () => {
    const [oidc] = externalProvidersFromEnv({
      OIDC_ISSUER: "https://sso.example.com/realms/team/",
      OIDC_CLIENT_ID: "verity",
      OIDC_CLIENT_SECRET: "x",
      OIDC_NAME: "Team SSO",
    });
    expect(oidc).toEqual({
      kind: "oidc",
      issuer: "https://sso.example.com/realms/team",
      clientId: "verity",
      clientSecret: "x",
      name: "Team SSO",
    });
  });

  it("rejects half a configuration and names what is missing", () => {
    expect(() => externalProvidersFromEnv({ GITHUB_ID: "id" })).toThrow(/GITHUB_SECRET/);
    expect(() => externalProvidersFromEnv({ OIDC_ISSUER: "https://a", OIDC_CLIENT_ID: "c" })).toThrow(
      /OIDC_CLIENT_SECRET/,
    );
  });

  it("rejects an issuer that is not a URL", () => {
    expect(() =>
      externalProvidersFromEnv({ OIDC_ISSUER: "not a url", OIDC_CLIENT_ID: "c", OIDC_CLIENT_SECRET: "s" }),
    ).toThrow(/must be a URL/);
  });

  it("treats blank values as unset", () => {
    expect(externalProvidersFromEnv({ GITHUB_ID: " ", GITHUB_SECRET: "" })).toEqual([]);
  });
});
