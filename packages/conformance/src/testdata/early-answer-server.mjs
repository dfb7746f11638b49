// An HTTP/1.1 server that refuses every request with a body by its announced size, before
// reading it, and closes the connection as soon as the answer is written (as servers enforcing
// a maximum message size do). It runs in its own process so that its close races the client's
// writes as a real plugin's does. Prints PORT=<n> once listening; exits on SIGTERM.
import * as http from "node:http";

const server = http.createServer((request, response) => {
  if (request.headers["content-length"] === undefined) {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("ok");
    return;
  }
  response.once("finish", () => request.socket.end(() => request.socket.destroy()));
  response.writeHead(429, { "content-type": "application/json", connection: "close" });
  response.end('{"code":"resource_exhausted","message":"message too large"}');
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`PORT=${server.address().port}\n`);
});
process.once("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
