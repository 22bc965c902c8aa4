// A minimal HTTP load balancer for the cluster tier: round-robin over the app instances, appending
// the client's address to X-Forwarded-For as a real balancer does (the instances run with
// VERITY_TRUST_PROXY=1). It is the address people use, so it is the instances' VERITY_PUBLIC_URL.
// A test may pin a request to one instance with the header `x-cluster-upstream: <index>`.
import { createServer, request, type Server } from "node:http";

export type Balancer = { url: string; close(): Promise<void> };

export async function startBalancer({ port, upstreams }: { port: number; upstreams: URL[] }): Promise<Balancer> {
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const pinned = Number(incoming.headers["x-cluster-upstream"]);
    const upstream = upstreams[Number.isInteger(pinned) && upstreams[pinned] ? pinned : next++ % upstreams.length];
    const forwardedFor = [incoming.headers["x-forwarded-for"], incoming.socket.remoteAddress]
      .filter(Boolean)
      .join(", ");
    const proxied = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, "x-forwarded-for": forwardedFor },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    proxied.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
