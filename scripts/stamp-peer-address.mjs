// Preloaded into the Next.js server (`node --import`, set by `verity serve`): stamps every HTTP
// request with the address of the connection's peer, overwriting any value a client sent. App
// Router handlers never see the socket, and X-Forwarded-For is whatever the client wrote unless a
// trusted proxy set it, so this header is how sign-in limits learn who is asking.
import http from "node:http";

const HEADER = "x-verity-peer-address";
const emit = http.Server.prototype.emit;

http.Server.prototype.emit = function stampPeerAddress(event, request, ...rest) {
  if (event === "request") request.headers[HEADER] = request.socket?.remoteAddress ?? "";
  return emit.call(this, event, request, ...rest);
};

// Lets the app tell a stamped header from one a client sent to a server started without this file.
globalThis[Symbol.for("verity.peer-address-stamped")] = true;
