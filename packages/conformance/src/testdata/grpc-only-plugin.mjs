// A costplugin.v1 plugin written without the SDK or Connect: @grpc/grpc-js alone, the protos
// loaded at run time. It speaks gRPC only. Run directly, it follows the host contract
// (--port, COSTPLUGIN_PLUGIN_PORT, ephemeral fallback, PORT=<n> on stdout, exit on SIGTERM);
// flags plant lifecycle defects: --ignore-sigterm, --no-port-line, --chatty-stdout.
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

const protoDir = fileURLToPath(new URL("../../../../proto", import.meta.url));
const hourly = 0.0104;

/** Writes a protobuf varint. */
function varint(value) {
  const bytes = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function field(number, wireType, body) {
  const tag = varint(number * 8 + wireType);
  return wireType === 2 ? Buffer.concat([tag, varint(body.length), body]) : Buffer.concat([tag, body]);
}

/** A gRPC error carrying a costplugin.v1.ErrorDetail in grpc-status-details-bin. */
function pluginError(status, code, category, message) {
  const detail = Buffer.concat([
    field(1, 0, varint(code)),
    field(2, 0, varint(category)),
    field(3, 2, Buffer.from(message)),
  ]);
  const any = Buffer.concat([
    field(1, 2, Buffer.from("type.googleapis.com/costplugin.v1.ErrorDetail")),
    field(2, 2, detail),
  ]);
  const rpcStatus = Buffer.concat([
    field(1, 0, varint(status)),
    field(2, 2, Buffer.from(message)),
    field(3, 2, any),
  ]);
  const metadata = new grpc.Metadata();
  metadata.set("grpc-status-details-bin", rpcStatus);
  return { code: status, details: message, metadata };
}

const invalidResource = (message) => pluginError(grpc.status.INVALID_ARGUMENT, 6, 2, message);
const invalidProvider = (message) => pluginError(grpc.status.UNIMPLEMENTED, 15, 3, message);

function priced(resource) {
  if (!resource || !resource.provider || !resource.resource_type) {
    return { error: invalidResource("resource needs a provider and a resource type") };
  }
  if (resource.provider !== "aws" || resource.resource_type !== "ec2") {
    return { error: invalidProvider(`only aws/ec2 is priced, not ${resource.provider}`) };
  }
  return { resource };
}

/** Starts the plugin on 127.0.0.1:`port` (0: ephemeral); resolves with the bound port. */
export async function startGrpcOnlyPlugin({ port = 0, maxReceiveBytes = 1024 * 1024 } = {}) {
  const definition = await protoLoader.load(
    ["costplugin/v1/costsource.proto", "costplugin/v1/observability.proto"],
    { includeDirs: [protoDir], keepCase: true, longs: Number, enums: Number, defaults: true },
  );
  const loaded = grpc.loadPackageDefinition(definition);
  const v1 = loaded.costplugin.v1;
  const server = new grpc.Server({ "grpc.max_receive_message_length": maxReceiveBytes });
  server.addService(v1.CostSourceService.service, {
    Name: (_call, callback) => callback(null, { name: "grpc-only" }),
    Supports: (call, callback) => {
      const resource = call.request.resource;
      if (!resource || !resource.provider || !resource.resource_type) {
        callback(invalidResource("resource needs a provider and a resource type"));
      } else if (resource.provider === "aws" && resource.resource_type === "ec2") {
        callback(null, { supported: true, reason: "" });
      } else {
        callback(null, { supported: false, reason: "only aws/ec2 is priced" });
      }
    },
    GetProjectedCost: (call, callback) => {
      const { error } = priced(call.request.resource);
      if (error) return callback(error);
      callback(null, {
        unit_price: hourly,
        currency: "USD",
        cost_per_month: hourly * 730,
        billing_detail: "on-demand",
      });
    },
    GetPricingSpec: (call, callback) => {
      const { error, resource } = priced(call.request.resource);
      if (error) return callback(error);
      callback(null, {
        spec: {
          provider: resource.provider,
          resource_type: resource.resource_type,
          sku: resource.sku,
          region: resource.region,
          billing_mode: "per_hour",
          rate_per_unit: hourly,
          currency: "USD",
          description: "fixture price",
          source: "fixture",
        },
      });
    },
  });
  server.addService(v1.ObservabilityService.service, {
    HealthCheck: (_call, callback) => {
      const seconds = Math.floor(Date.now() / 1000);
      callback(null, { status: 1, message: "", last_check_time: { seconds, nanos: 0 } });
    },
  });
  const bound = await new Promise((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
    forceClose: () => server.forceShutdown(),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const portArg = args.find((arg) => arg.startsWith("--port="));
  const port = Number(portArg?.slice("--port=".length) ?? process.env.COSTPLUGIN_PLUGIN_PORT ?? 0);
  const plugin = await startGrpcOnlyPlugin({ port });
  if (args.includes("--chatty-stdout")) process.stdout.write("starting up, hello\n");
  if (!args.includes("--no-port-line")) process.stdout.write(`PORT=${plugin.port}\n`);
  process.stderr.write(`${JSON.stringify({ level: "info", msg: "listening", port: plugin.port })}\n`);
  const stop = () => {
    if (args.includes("--ignore-sigterm")) return;
    plugin.forceClose();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
