// Plain @connectrpc/connect-node serving the same plugin with the same SDK routes and metrics
// interceptor as the one-port server: HTTP/2 (h2c) on one port and HTTP/1.1 on another, since
// connect-node alone cannot offer both on one cleartext port.
import { createServer } from "node:http";
import { createServer as createHttp2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { createPluginRoutes } from "@costplugin/sdk";

const routes = createPluginRoutes(createListPricePlugin());
const handler = connectNodeAdapter({ routes, interceptors: [routes.observability.interceptor] });
const h2 = createHttp2Server(handler).listen(0, "127.0.0.1");
const h1 = createServer(handler).listen(0, "127.0.0.1");
await Promise.all([h2, h1].map((s) => new Promise((r) => s.once("listening", r))));
process.stdout.write(
  `PORT=${(h2.address() as AddressInfo).port}\nPORT_HTTP1=${(h1.address() as AddressInfo).port}\n`,
);
process.once("SIGTERM", () => process.exit(0));
