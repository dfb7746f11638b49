/** A running grpc-js plugin. */
export interface GrpcOnlyPlugin {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
  forceClose(): void;
}

/** Starts the gRPC-only fixture plugin on 127.0.0.1. */
export function startGrpcOnlyPlugin(options?: {
  port?: number;
  maxReceiveBytes?: number;
}): Promise<GrpcOnlyPlugin>;
