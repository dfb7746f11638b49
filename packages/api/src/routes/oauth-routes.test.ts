import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApi, json, type TestApi, testEngines } from "../test-support.js";

describe.each(testEngines)("oauthRoutes on %s", (engine) => {
  let api: TestApi;
  let client: { client_id: string; client_secret: string };
  beforeAll(async () => {
    api = await buildTestApi({ engine });
    const res = await api.call("admin", {
      method: "POST",
      url: "/api/v1/oauth/clients",
      payload: { name: "billing dashboard", scopes: ["viewer", "operator"] },
    });
    expect(res.statusCode).toBe(201);
    client = json(res) as typeof client;
  });
  afterAll(async () => {
    await api?.close();
  });

  const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    api.app.inject({
      method: "POST",
      url: "/api/v1/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      payload: new URLSearchParams(form).toString(),
    });
  const basic = () => ({
    authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
  });

  it("shows the client secret once and never lists it", async () => {
    expect(client.client_secret.length).toBeGreaterThanOrEqual(40);
    const list = await api.call("admin", { method: "GET", url: "/api/v1/oauth/clients" });
    expect(json<{ items: Array<Record<string, unknown>> }>(list).items[0]).toEqual({
      client_id: client.client_id,
      name: "billing dashboard",
      scopes: ["viewer", "operator"],
      created_at: expect.any(String),
    });
    expect(list.body).not.toContain(client.client_secret);
  });

  it("reads a client at the Location it was created at, never with its secret", async () => {
    const created = await api.call("admin", {
      method: "POST",
      url: "/api/v1/oauth/clients",
      payload: { name: "located", scopes: ["viewer"] },
    });
    const location = String(created.headers.location);
    expect(location).toBe(`/api/v1/oauth/clients/${json(created).client_id}`);
    const read = await api.call("admin", { method: "GET", url: location });
    expect(read.statusCode).toBe(200);
    expect(json(read)).toEqual({
      client_id: json(created).client_id,
      name: "located",
      scopes: ["viewer"],
      created_at: expect.any(String),
    });
    expect(read.body).not.toContain(String(json(created).client_secret));
    const missing = await api.call("admin", {
      method: "GET",
      url: "/api/v1/oauth/clients/client_nope",
    });
    expect(missing.statusCode).toBe(404);
    await api.call("admin", { method: "DELETE", url: location });
  });

  it("issues a scoped token with HTTP Basic credentials that works on the API", async () => {
    const res = await token({ grant_type: "client_credentials", scope: "viewer" }, basic());
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = json(res);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "viewer" });
    const auth = { authorization: `Bearer ${body.access_token}` };
    expect(
      (await api.app.inject({ method: "GET", url: "/api/v1/tasks", headers: auth })).statusCode,
    ).toBe(200);
    const write = await api.app.inject({
      method: "POST",
      url: "/api/v1/tasks/x/execute",
      headers: auth,
    });
    expect(write.statusCode).toBe(403);
  });

  it("issues every allowed scope when none is asked, with credentials in the body", async () => {
    const res = await token({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(json(res)).toMatchObject({ scope: "viewer operator" });
    const auth = { authorization: `Bearer ${json(res).access_token}` };
    expect(
      (await api.app.inject({ method: "POST", url: "/api/v1/tasks/x/execute", headers: auth }))
        .statusCode,
    ).toBe(404);
  });

  it("refuses a scope beyond the client's with invalid_scope", async () => {
    const res = await token({ grant_type: "client_credentials", scope: "admin" }, basic());
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ error: "invalid_scope" });
  });

  it("refuses a wrong secret, an unknown client and missing credentials with invalid_client", async () => {
    const wrong = await token({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: "nope",
    });
    expect(wrong.statusCode).toBe(401);
    expect(json(wrong)).toMatchObject({
      error: "invalid_client",
      type: "urn:costplugin:problem:unauthorized",
    });
    expect(wrong.headers["www-authenticate"]).toBe('Basic realm="costplugin"');
    const unknown = await token({
      grant_type: "client_credentials",
      client_id: "client_x",
      client_secret: "nope",
    });
    expect(unknown.statusCode).toBe(401);
    expect((await token({ grant_type: "client_credentials" })).statusCode).toBe(401);
  });

  it("refuses other grant types, repeated parameters, two auth methods and unknown fields", async () => {
    expect(json(await token({ grant_type: "password" }, basic()))).toMatchObject({
      error: "unsupported_grant_type",
    });
    const repeated = await api.app.inject({
      method: "POST",
      url: "/api/v1/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded", ...basic() },
      payload: "grant_type=client_credentials&scope=viewer&scope=admin",
    });
    expect(json(repeated)).toMatchObject({ error: "invalid_request" });
    const both = await token(
      {
        grant_type: "client_credentials",
        client_id: client.client_id,
        client_secret: client.client_secret,
      },
      basic(),
    );
    expect(json(both)).toMatchObject({ error: "invalid_request" });
    expect(
      (await token({ grant_type: "client_credentials", audience: "x" }, basic())).statusCode,
    ).toBe(400);
  });

  it("stops accepting the tokens of a deleted client", async () => {
    const created = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/oauth/clients",
        payload: { name: "temp", scopes: ["viewer"] },
      }),
    );
    const res = await token({
      grant_type: "client_credentials",
      client_id: String(created.client_id),
      client_secret: String(created.client_secret),
    });
    const auth = { authorization: `Bearer ${json(res).access_token}` };
    expect(
      (await api.app.inject({ method: "GET", url: "/api/v1/tasks", headers: auth })).statusCode,
    ).toBe(200);
    expect(
      (
        await api.call("admin", {
          method: "DELETE",
          url: `/api/v1/oauth/clients/${created.client_id}`,
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (await api.app.inject({ method: "GET", url: "/api/v1/tasks", headers: auth })).statusCode,
    ).toBe(401);
    expect(
      (
        await api.call("admin", {
          method: "DELETE",
          url: `/api/v1/oauth/clients/${created.client_id}`,
        })
      ).statusCode,
    ).toBe(404);
  });

  it("refuses clients without scopes or with unknown ones", async () => {
    for (const scopes of [[], ["root"], ["viewer", "viewer"]]) {
      const res = await api.call("admin", {
        method: "POST",
        url: "/api/v1/oauth/clients",
        payload: { name: "bad", scopes },
      });
      expect(res.statusCode, JSON.stringify(scopes)).toBe(400);
    }
  });
});
