import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../processors/webhook-processor.js";
import {
  buildTestApi,
  json,
  type StandIn,
  startStandIn,
  type TestApi,
  testEngines,
} from "../test-support.js";

const webhookSecret = "whsec-0123456789abcdef";

describe.each(testEngines)("processorRoutes on %s", (engine) => {
  let api: TestApi;
  let hook: StandIn;
  let promptId: string;
  beforeAll(async () => {
    api = await buildTestApi({ engine });
    hook = await startStandIn(() => ({ status: 204 }));
    promptId = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/prompts",
        payload: { name: "p", template: "processed output" },
      }),
    ).id as string;
  });
  afterAll(async () => {
    await api?.close();
    await hook?.close();
  });

  async function runTask(name: string, processors: string[]) {
    const task = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/tasks",
        payload: { name, prompt_id: promptId, model_id: "offline:echo", processors },
      }),
    );
    return json(
      await api.call("operator", { method: "POST", url: `/api/v1/tasks/${task.id}/execute` }),
    );
  }

  it("lists the three processors with their defaults", async () => {
    const res = json<{ items: Array<{ type: string; enabled: boolean }> }>(
      await api.call("viewer", { method: "GET", url: "/api/v1/processors" }),
    );
    expect(res.items.map((p) => [p.type, p.enabled])).toEqual([
      ["console", true],
      ["file", false],
      ["webhook", false],
    ]);
  });

  it("answers 404 for an unknown processor type", async () => {
    expect(
      (await api.call("viewer", { method: "GET", url: "/api/v1/processors/ftp/config" }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await api.call("admin", {
          method: "PUT",
          url: "/api/v1/processors/ftp/config",
          payload: {},
        })
      ).statusCode,
    ).toBe(404);
  });

  it("refuses a file directory that is absolute or climbs out of the root", async () => {
    for (const directory of ["/etc", "../outside", "a/../../b", "..\\win", "nul\u0000byte"]) {
      const res = await api.call("admin", {
        method: "PUT",
        url: "/api/v1/processors/file/config",
        payload: { directory },
      });
      expect(res.statusCode, directory).toBe(400);
    }
  });

  it("refuses fields of another processor type", async () => {
    const res = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/console/config",
      payload: { directory: "x" },
    });
    expect(res.statusCode).toBe(400);
    expect(json(res).errors).toEqual([
      { in: "body", path: "/directory", message: "unknown field" },
    ]);
  });

  it("names only the faulty field of the processor's own configuration", async () => {
    const unknown = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/file/config",
      payload: { directory: "reports", extra: 1 },
    });
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown).errors).toEqual([
      { in: "body", path: "/extra", message: "unknown field" },
    ]);
    const wrongType = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/file/config",
      payload: { enabled: "yes" },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(json(wrongType).errors).toEqual([
      { in: "body", path: "/enabled", message: "must be boolean" },
    ]);
    const shortSecret = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/webhook/config",
      payload: { secret: "short" },
    });
    expect(json(shortSecret).errors).toEqual([
      { in: "body", path: "/secret", message: "must not have fewer than 16 characters" },
    ]);
  });

  it("writes one file per response with a safe name inside the configured directory", async () => {
    const put = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/file/config",
      payload: { enabled: true, directory: `out-${engine}` },
    });
    expect(put.statusCode).toBe(200);
    const run = await runTask("../../etc/passwd évil/name", ["file"]);
    const result = (run.processor_results as Array<Record<string, unknown>>)[0];
    expect(result).toMatchObject({ type: "file", ok: true });
    const files = readdirSync(join(api.fileRoot, `out-${engine}`));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{17}-etc-passwd-evil-name-[0-9a-f-]{36}\.json$/);
    expect(result?.detail).toBe(join(`out-${engine}`, files[0] ?? ""));
    const written = JSON.parse(
      readFileSync(join(api.fileRoot, `out-${engine}`, files[0] ?? ""), "utf8"),
    );
    expect(written).toMatchObject({ id: run.id, output: run.output });
  });

  it("refuses to enable the webhook without a url and a secret", async () => {
    const res = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/webhook/config",
      payload: { enabled: true },
    });
    expect(res.statusCode).toBe(400);
    const creds = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/webhook/config",
      payload: { url: "http://user:pw@127.0.0.1/x", secret: webhookSecret },
    });
    expect(creds.statusCode).toBe(400);
  });

  it("never shows the webhook secret, only that it is set", async () => {
    const put = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/webhook/config",
      payload: { enabled: true, url: `${hook.url}/hook`, secret: webhookSecret, max_attempts: 3 },
    });
    expect(put.statusCode).toBe(200);
    const read = await api.call("admin", {
      method: "GET",
      url: "/api/v1/processors/webhook/config",
    });
    expect(json(read)).toMatchObject({
      enabled: true,
      config: { secret_set: true, url: `${hook.url}/hook` },
    });
    expect(read.body).not.toContain(webhookSecret);
    expect(put.body).not.toContain(webhookSecret);
  });

  it("shows other roles only the origin of the webhook URL, which may carry a credential", async () => {
    const put = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/webhook/config",
      payload: { url: `${hook.url}/services/T0001/B0001/path-credential?token=query-credential` },
    });
    expect(put.statusCode).toBe(200);
    for (const role of ["viewer", "operator"] as const) {
      const one = await api.call(role, { method: "GET", url: "/api/v1/processors/webhook/config" });
      const all = await api.call(role, { method: "GET", url: "/api/v1/processors" });
      expect(json(one).config).toMatchObject({ url: `${hook.url}/…` });
      for (const body of [one.body, all.body]) {
        expect(body).not.toContain("path-credential");
        expect(body).not.toContain("query-credential");
      }
    }
    const admin = await api.call("admin", { method: "GET", url: "/api/v1/processors" });
    expect(admin.body).toContain("path-credential");
    await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/webhook/config",
      payload: { url: `${hook.url}/hook` },
    });
  });

  it("delivers a signed webhook and retries a 500 with backoff", async () => {
    hook.requests.length = 0;
    hook.handle((_r, i) => (i === 0 ? { status: 500 } : { status: 204 }));
    const run = await runTask("webhook-task", ["webhook"]);
    expect((run.processor_results as unknown[])[0]).toMatchObject({
      type: "webhook",
      ok: true,
      detail: "HTTP 204",
      attempts: 2,
    });
    expect(hook.requests).toHaveLength(2);
    const delivered = hook.requests[1];
    const timestamp = Number(delivered?.headers["x-costplugin-timestamp"]);
    expect(delivered?.headers["x-costplugin-signature"]).toBe(
      signWebhook(webhookSecret, timestamp, delivered?.body ?? ""),
    );
    expect(JSON.parse(delivered?.body ?? "")).toMatchObject({ id: run.id, status: "succeeded" });
  });

  it("records a webhook that keeps failing and does not retry a 4xx", async () => {
    hook.requests.length = 0;
    hook.handle(() => ({ status: 410 }));
    const run = await runTask("webhook-gone", ["webhook"]);
    const result = (run.processor_results as Array<Record<string, unknown>>)[0];
    expect(result).toMatchObject({ type: "webhook", ok: false, attempts: 1 });
    expect(String(result?.error)).toContain("HTTP 410");
    expect(run.status).toBe("succeeded");
    expect(hook.requests).toHaveLength(1);
  });

  it("records a disabled processor as failed without failing the run", async () => {
    await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/console/config",
      payload: { enabled: false },
    });
    const run = await runTask("console-off", ["console"]);
    expect(run.status).toBe("succeeded");
    expect((run.processor_results as unknown[])[0]).toMatchObject({
      ok: false,
      error: "processor console is disabled",
    });
    await api.call("admin", {
      method: "PUT",
      url: "/api/v1/processors/console/config",
      payload: { enabled: true },
    });
  });
});
