import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApi, json, type StandIn, startStandIn, type TestApi } from "../test-support.js";

const openaiKey = "sk-test-openai-key-123456";
const anthropicKey = "sk-ant-test-key-123456";
const geminiKey = "gm-test-key-123456";

function answerFor(url: string): unknown {
  if (url.endsWith("/chat/completions")) {
    return {
      choices: [{ message: { role: "assistant", content: "openai says hi" } }],
      usage: { prompt_tokens: 11, completion_tokens: 4 },
    };
  }
  if (url.endsWith("/v1/messages")) {
    return {
      content: [
        { type: "text", text: "anthropic " },
        { type: "text", text: "says hi" },
      ],
      usage: { input_tokens: 12, output_tokens: 5 },
    };
  }
  return {
    candidates: [{ content: { parts: [{ text: "gemini says hi" }] } }],
    usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 6 },
  };
}

describe("model providers against stand-in servers", () => {
  let standIn: StandIn;
  let api: TestApi;
  beforeAll(async () => {
    standIn = await startStandIn((r) => ({ status: 200, body: answerFor(r.url) }));
    api = await buildTestApi({
      providers: {
        openai: { apiKey: openaiKey, baseUrl: `${standIn.url}/v1`, models: ["gpt-test"] },
        anthropic: { apiKey: anthropicKey, baseUrl: standIn.url, models: ["claude-test"] },
        gemini: { apiKey: geminiKey, baseUrl: standIn.url, models: ["gemini-test"] },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await standIn?.close();
  });
  beforeEach(() => {
    standIn.requests.length = 0;
    standIn.handle((r) => ({ status: 200, body: answerFor(r.url) }));
  });

  const test = (model: string, prompt = "hello there") =>
    api.call("operator", {
      method: "POST",
      url: `/api/v1/models/${model}/test`,
      payload: { prompt },
    });

  it("speaks OpenAI chat completions with a bearer key, system message and limits", async () => {
    await api.call("admin", {
      method: "PUT",
      url: "/api/v1/models/openai:gpt-test/config",
      payload: {
        system_message: "be brief",
        temperature: 0.2,
        max_tokens: 64,
        input_price_per_million: 1,
        output_price_per_million: 2,
      },
    });
    const res = await test("openai:gpt-test");
    expect(json(res)).toMatchObject({
      status: "succeeded",
      output: "openai says hi",
      tokens_in: 11,
      tokens_out: 4,
      cost_estimate: 0.000019,
    });
    const sent = standIn.requests[0];
    expect(sent?.url).toBe("/v1/chat/completions");
    expect(sent?.headers.authorization).toBe(`Bearer ${openaiKey}`);
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hello there" },
      ],
      max_tokens: 64,
      temperature: 0.2,
    });
  });

  it("speaks Anthropic messages with x-api-key and anthropic-version", async () => {
    const res = await test("anthropic:claude-test");
    expect(json(res)).toMatchObject({
      status: "succeeded",
      output: "anthropic says hi",
      tokens_in: 12,
      tokens_out: 5,
    });
    const sent = standIn.requests[0];
    expect(sent?.url).toBe("/v1/messages");
    expect(sent?.headers["x-api-key"]).toBe(anthropicKey);
    expect(sent?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      model: "claude-test",
      max_tokens: 1024,
      messages: [{ role: "user", content: "hello there" }],
    });
  });

  it("speaks Gemini generateContent with the key in a header, never in the URL", async () => {
    const res = await test("gemini:gemini-test");
    expect(json(res)).toMatchObject({
      status: "succeeded",
      output: "gemini says hi",
      tokens_in: 13,
      tokens_out: 6,
    });
    const sent = standIn.requests[0];
    expect(sent?.url).toBe("/v1beta/models/gemini-test:generateContent");
    expect(sent?.headers["x-goog-api-key"]).toBe(geminiKey);
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      contents: [{ role: "user", parts: [{ text: "hello there" }] }],
      generationConfig: { maxOutputTokens: 1024 },
    });
  });

  it("retries a 503 with backoff and records the run as failed with the status", async () => {
    standIn.handle(() => ({ status: 503, body: { error: "overloaded" } }));
    const prompt = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/prompts",
        payload: { name: "overloaded-prompt", template: "hi" },
      }),
    );
    const task = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/tasks",
        payload: {
          name: "overloaded-task",
          prompt_id: prompt.id,
          model_id: "anthropic:claude-test",
        },
      }),
    );
    const run = json(
      await api.call("operator", { method: "POST", url: `/api/v1/tasks/${task.id}/execute` }),
    );
    expect(run).toMatchObject({
      status: "failed",
      attempts: 3,
      output: null,
      model_id: "anthropic:claude-test",
    });
    expect(String(run.error)).toContain("anthropic answered HTTP 503");
    expect(standIn.requests).toHaveLength(3);
    const recorded = json<{ items: Array<{ id: string }> }>(
      await api.call("viewer", {
        method: "GET",
        url: `/api/v1/responses?task_id=${task.id}&status=failed`,
      }),
    );
    expect(recorded.items.map((r) => r.id)).toEqual([run.id]);
  });

  it("succeeds when a transient failure goes away on retry", async () => {
    standIn.handle((r, i) => (i === 0 ? { status: 502 } : { status: 200, body: answerFor(r.url) }));
    const res = json(await test("openai:gpt-test"));
    expect(res).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("does not retry a 400 and keeps the API key out of the recorded error", async () => {
    standIn.handle(() => ({ status: 401, body: { error: `invalid key ${geminiKey}` } }));
    const res = json(await test("gemini:gemini-test"));
    expect(res).toMatchObject({ status: "failed", attempts: 1 });
    expect(String(res.error)).toContain("[redacted]");
    expect(JSON.stringify(res)).not.toContain(geminiKey);
  });

  it("records a time-out as a failed run with a clear error", async () => {
    await api.call("admin", {
      method: "PUT",
      url: "/api/v1/models/openai:gpt-test/config",
      payload: { timeout_ms: 100 },
    });
    standIn.handle(() => "hang");
    const prompt = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/prompts",
        payload: { name: "timeout-prompt", template: "hi" },
      }),
    );
    const task = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/tasks",
        payload: { name: "timeout-task", prompt_id: prompt.id, model_id: "openai:gpt-test" },
      }),
    );
    const run = json(
      await api.call("operator", { method: "POST", url: `/api/v1/tasks/${task.id}/execute` }),
    );
    expect(run).toMatchObject({ status: "failed", attempts: 3, output: null });
    expect(String(run.error)).toContain("openai did not answer in time");
    await api.call("admin", {
      method: "PUT",
      url: "/api/v1/models/openai:gpt-test/config",
      payload: { timeout_ms: 30_000 },
    });
  });

  it("records malformed answers as permanent failures", async () => {
    standIn.handle(() => ({ status: 200, body: "not json" }));
    const res = json(await test("openai:gpt-test"));
    expect(res).toMatchObject({ status: "failed", attempts: 1 });
    expect(String(res.error)).toContain("not JSON");
  });

  it("falls back to the configured fallback model after the primary fails", async () => {
    await api.call("admin", {
      method: "PUT",
      url: "/api/v1/models/anthropic:claude-test/config",
      payload: { fallback_model_id: "offline:echo" },
    });
    standIn.handle(() => ({ status: 500 }));
    const res = json(await test("anthropic:claude-test"));
    expect(res).toMatchObject({ status: "succeeded", model_id: "offline:echo", attempts: 4 });
    expect(String(res.error)).toContain("answered by fallback offline:echo");
    await api.call("admin", {
      method: "PUT",
      url: "/api/v1/models/anthropic:claude-test/config",
      payload: { fallback_model_id: null },
    });
  });

  it("reports usage per model: calls, errors, tokens, latency and spend", async () => {
    const list = json<{
      items: Array<{ id: string; available: boolean; usage: Record<string, number> }>;
    }>(await api.call("viewer", { method: "GET", url: "/api/v1/models" }));
    const openai = list.items.find((m) => m.id === "openai:gpt-test");
    expect(openai?.available).toBe(true);
    expect(openai?.usage.calls).toBeGreaterThanOrEqual(3);
    expect(openai?.usage.errors).toBeGreaterThanOrEqual(1);
    expect(openai?.usage.tokens_in).toBeGreaterThanOrEqual(11);
    expect(openai?.usage.estimated_spend).toBeGreaterThan(0);
  });
});
