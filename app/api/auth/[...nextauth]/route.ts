import NextAuth from "next-auth";
import { NextRequest } from "next/server";

import { authOptions } from "@/lib/server/auth/options";
import { errorResponse, readBody } from "@/lib/server/http";

// Sign-in, callback and sign-out forms hold an email, a password and a few tokens; nothing larger is
// read, so a huge body cannot grow the server (next-auth itself would buffer all of it).
const MAX_AUTH_BODY_BYTES = 64 * 1024;

const handler = NextAuth(authOptions);

type Context = { params: Promise<{ nextauth: string[] }> };

async function POST(request: NextRequest, context: Context): Promise<Response> {
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readBody(request, MAX_AUTH_BODY_BYTES);
  } catch (error) {
    return errorResponse(error);
  }
  return handler(new NextRequest(request.url, { method: "POST", headers: request.headers, body }), context);
}

export { handler as GET, POST };
