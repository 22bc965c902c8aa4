// Route tests call a route handler as the app would: a POST with a bearer token and a JSON body.

type RouteHandler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

/** POSTs to a route handler with `token`; `body` is sent as JSON, a string as it is (to send bad JSON). */
export function postWithToken<P>(
  handler: RouteHandler<P>,
  token: string,
  params: P,
  body?: unknown,
): Promise<Response> {
  const request = new Request("http://localhost/api/v1/x", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  return handler(request, { params: Promise.resolve(params) });
}
