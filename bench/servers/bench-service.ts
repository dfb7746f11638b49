// The work every peer does per GetProjectedCost, so that the table compares protocol layers and
// not amounts of work: the SDK's CostSourceService implementation around the reference plugin
// (request validation, error boundary) measured by the SDK's metrics interceptor, exactly what
// the one-port server runs for the same call.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type {
  ConnectRouter,
  HandlerContext,
  Interceptor,
  UnaryRequest,
  UnaryResponse,
} from "@connectrpc/connect";
import { createContextValues } from "@connectrpc/connect";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import {
  CostSourceService,
  type GetProjectedCostRequest,
  type GetProjectedCostResponse,
  GetProjectedCostResponseSchema,
} from "@costplugin/proto";
import { createObservability, createPluginRoutes } from "@costplugin/sdk";

type Impl = (request: GetProjectedCostRequest, context: HandlerContext) => unknown;

/** Calls GetProjectedCost through the SDK service and its metrics interceptor. */
export type BenchGetProjectedCost = (
  request: GetProjectedCostRequest,
  contentType: string,
) => Promise<GetProjectedCostResponse>;

/** Builds the shared per-call work once per server process. */
export function createBenchService(): BenchGetProjectedCost {
  const observability = createObservability();
  const routes = createPluginRoutes(createListPricePlugin(), { observability });
  let impl: Impl | undefined;
  const collector = {
    handlers: [],
    service(service: typeof CostSourceService, implementation: Record<string, Impl>) {
      if (service.typeName === CostSourceService.typeName) {
        impl = implementation.getProjectedCost?.bind(implementation);
      }
      return collector;
    },
    rpc: () => collector,
  } as unknown as ConnectRouter;
  routes(collector);
  if (impl === undefined) throw new Error("the SDK registered no GetProjectedCost");
  const method = CostSourceService.method.getProjectedCost;
  const interceptor: Interceptor = observability.interceptor;
  const call = impl;
  return async (request, contentType) => {
    const controller = new AbortController();
    const header = new Headers({ "content-type": contentType });
    const next = interceptor(async (req) => {
      const context = {
        method,
        service: CostSourceService,
        signal: req.signal,
        timeoutMs: () => undefined,
        requestMethod: "POST",
        requestHeader: req.header,
        responseHeader: new Headers(),
        responseTrailer: new Headers(),
        protocolName: "bench",
        values: req.contextValues,
        url: req.url,
      } satisfies HandlerContext;
      const output = await call(req.message as GetProjectedCostRequest, context);
      return {
        stream: false,
        method,
        service: CostSourceService,
        header: context.responseHeader,
        trailer: context.responseTrailer,
        message: create(
          GetProjectedCostResponseSchema,
          output as MessageInitShape<typeof GetProjectedCostResponseSchema>,
        ),
      } as UnaryResponse;
    });
    const response = await next({
      stream: false,
      message: request,
      method,
      service: CostSourceService,
      requestMethod: "POST",
      url: "",
      signal: controller.signal,
      header,
      contextValues: createContextValues(),
    } as UnaryRequest);
    return response.message as GetProjectedCostResponse;
  };
}
