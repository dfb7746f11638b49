import { compileErrors, validate } from "@readme/openapi-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemContentType } from "./problem.js";
import { buildTestApi, json, type TestApi } from "./test-support.js";

type Operation = OpenAPIV3_1.OperationObject & { "x-costplugin-role"?: string };
type Document = OpenAPIV3_1.Document & {
  paths: Record<string, Record<string, Operation>>;
};

const methods = ["get", "put", "post", "delete", "patch"] as const;

describe("the OpenAPI document", () => {
  let api: TestApi;
  let doc: Document;
  beforeAll(async () => {
    api = await buildTestApi();
    doc = json<Document>(await api.app.inject({ url: "/api/v1/openapi.json" }));
  });
  afterAll(async () => {
    await api?.close();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      methods
        .filter((m) => item[m] !== undefined)
        .map((m) => ({ path, method: m, op: item[m] as Operation })),
    );

  it("is a valid OpenAPI 3.1 document by the official schema and the parser's rules", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc) as never, {
      validate: { errors: { colorize: false } },
    });
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result.warnings).toEqual([]);
  });

  it("lists every route with its security requirement and role", () => {
    const routes = api.routes.filter(
      (r) => r.method !== "HEAD" && !r.url.startsWith("/api/v1/docs"),
    );
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const path = route.url.replace(/:([A-Za-z]+)/g, "{$1}");
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.url}`).toBeDefined();
      const access = route.access ?? "admin";
      expect(op?.["x-costplugin-role"], `${route.method} ${route.url}`).toBe(access);
      const accepted =
        { viewer: ["viewer", "operator", "admin"], operator: ["operator", "admin"] }[
          access as "viewer" | "operator"
        ] ?? (access === "admin" ? ["admin"] : []);
      expect(op?.security, `${route.method} ${route.url}`).toEqual(
        accepted.flatMap((role) => [{ bearerAuth: [role] }, { oauth2: [role] }]),
      );
      expect(op?.description).toContain(access === "public" ? "Public" : `the ${access} role`);
    }
    expect(operations()).toHaveLength(routes.length);
  });

  it("names every operation once", () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("describes every error as an RFC 9457 problem document", () => {
    for (const { path, method, op } of operations()) {
      for (const [code, response] of Object.entries(op.responses ?? {})) {
        const r = response as OpenAPIV3_1.ResponseObject;
        expect(r.description, `${method} ${path} ${code}`).not.toBe("Default Response");
        if (Number(code) < 400) continue;
        expect(Object.keys(r.content ?? {}), `${method} ${path} ${code}`).toEqual([
          problemContentType,
        ]);
        expect(r.content?.[problemContentType]?.schema).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
      if (op.requestBody) {
        expect(Object.keys(op.responses ?? {}), `${method} ${path}`).toEqual(
          expect.arrayContaining(["400", "413", "415"]),
        );
      }
    }
  });

  it("documents the pagination, creation, challenge and rate-limit headers", () => {
    const header = (path: string, method: string, code: string) => {
      const response = doc.paths[path]?.[method]?.responses?.[code] as
        | OpenAPIV3_1.ResponseObject
        | undefined;
      return Object.keys(response?.headers ?? {});
    };
    expect(header("/api/v1/responses", "get", "200")).toEqual(
      expect.arrayContaining(["Link", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
    );
    expect(header("/api/v1/tasks", "post", "201")).toContain("Location");
    expect(header("/api/v1/tasks", "post", "401")).toContain("WWW-Authenticate");
    expect(header("/api/v1/tasks", "post", "429")).toEqual(
      expect.arrayContaining(["Retry-After", "RateLimit-Reset"]),
    );
    expect(Object.keys(doc.components?.headers ?? {})).toEqual(
      expect.arrayContaining(["Link", "Location", "Retry-After", "WWW-Authenticate"]),
    );
  });

  it("names the resources in components and refers to them", () => {
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(["Problem", "Task", "TaskInput", "Prompt", "Response", "Model"]),
    );
    const created = doc.paths["/api/v1/tasks"]?.post?.responses?.[
      "201"
    ] as OpenAPIV3_1.ResponseObject;
    expect(created.content?.["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/Task",
    });
  });

  it("documents the form body of the token endpoint and the optional bodies of tests", () => {
    const token = doc.paths["/api/v1/oauth/token"]?.post
      ?.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(Object.keys(token.content)).toEqual([
      "application/x-www-form-urlencoded",
      "application/json",
    ]);
    const test = doc.paths["/api/v1/models/{id}/test"]?.post
      ?.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(test.required).toBe(false);
    const create = doc.paths["/api/v1/tasks"]?.post?.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(create.required).toBe(true);
  });
});
