import type { Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";

/** A connect-node transport of every protocol, encoding and HTTP version the server offers. */
export interface NamedTransport {
  readonly name: string;
  readonly protocol: "connect" | "grpc" | "grpc-web";
  create(baseUrl: string): Transport;
}

/** Every protocol/encoding/HTTP-version combination, each a fresh transport per server. */
export const transportMatrix: readonly NamedTransport[] = [
  {
    name: "gRPC over h2c",
    protocol: "grpc",
    create: (baseUrl) => createGrpcTransport({ baseUrl }),
  },
  {
    name: "gRPC-web binary over HTTP/1.1",
    protocol: "grpc-web",
    create: (baseUrl) => createGrpcWebTransport({ baseUrl, httpVersion: "1.1" }),
  },
  {
    name: "gRPC-web JSON over h2c",
    protocol: "grpc-web",
    create: (baseUrl) =>
      createGrpcWebTransport({ baseUrl, httpVersion: "2", useBinaryFormat: false }),
  },
  {
    name: "Connect JSON over HTTP/1.1",
    protocol: "connect",
    create: (baseUrl) => createConnectTransport({ baseUrl, httpVersion: "1.1" }),
  },
  {
    name: "Connect binary over HTTP/1.1",
    protocol: "connect",
    create: (baseUrl) =>
      createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: true }),
  },
  {
    name: "Connect JSON over h2c",
    protocol: "connect",
    create: (baseUrl) => createConnectTransport({ baseUrl, httpVersion: "2" }),
  },
  {
    name: "Connect binary over h2c",
    protocol: "connect",
    create: (baseUrl) =>
      createConnectTransport({ baseUrl, httpVersion: "2", useBinaryFormat: true }),
  },
  {
    name: "Connect GET over HTTP/1.1",
    protocol: "connect",
    create: (baseUrl) => createConnectTransport({ baseUrl, httpVersion: "1.1", useHttpGet: true }),
  },
  {
    name: "Connect GET binary over h2c",
    protocol: "connect",
    create: (baseUrl) =>
      createConnectTransport({
        baseUrl,
        httpVersion: "2",
        useHttpGet: true,
        useBinaryFormat: true,
      }),
  },
];
