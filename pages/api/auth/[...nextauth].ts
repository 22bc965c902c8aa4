import type { NextApiRequest, NextApiResponse } from "next";
import NextAuth from "next-auth";

import { CLIENT_ADDRESS_HEADER, clientAddress } from "@/lib/server/auth/client-address";
import { authOptions } from "@/lib/server/auth/options";
import { readConfig } from "@/lib/server/config";

// next-auth's routes live in the Pages Router because only here does a handler see the connection
// itself: sign-in limits per client need the peer address, which App Router handlers never get
// (and X-Forwarded-For alone is whatever the client wrote unless a trusted proxy set it).
export default function auth(request: NextApiRequest, response: NextApiResponse) {
  request.headers[CLIENT_ADDRESS_HEADER] = clientAddress({
    remoteAddress: request.socket.remoteAddress,
    forwardedFor: request.headers["x-forwarded-for"],
    trustedProxies: readConfig().trustedProxies,
  });
  return NextAuth(request, response, authOptions);
}
