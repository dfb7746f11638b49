import { describe, expect, it } from "vitest";
import type { PlaygroundState } from "../src/playground-state.js";
import { defaultState } from "../src/playground-state.js";
import { queryFromState, stateFromQuery } from "../src/url-state.js";

const defaults = defaultState("http://127.0.0.1:8080", new Date("2025-03-10T12:00:00Z"));

describe("stateFromQuery", () => {
  it("gives the defaults for an empty query", () => {
    expect(stateFromQuery("", defaults)).toEqual({ ...defaults, pins: [] });
  });

  it("round-trips every field through queryFromState", () => {
    const state: PlaygroundState = {
      baseUrl: "https://plugins.example.com:9443/base",
      protocol: "grpc-web",
      resource: {
        provider: "aws",
        resourceType: "aws:ec2/instance:Instance",
        sku: "m5.large",
        region: "eu-west-1",
        tags: [
          ["size_gb", "100"],
          ["team", "a=b|c"],
        ],
      },
      pins: [
        { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1", tags: [] },
        {
          provider: "aws",
          resourceType: "ebs",
          sku: "gp3",
          region: "us-east-1",
          tags: [
            ["size_gb", "50"],
            ["x&y", "1|2"],
          ],
        },
      ],
      sort: { key: "unitPrice", direction: "desc" },
      actual: {
        resourceId: "i-123",
        startDate: "2025-01-01",
        endDate: "2025-01-31",
        tags: [["env", "prod"]],
      },
      sliWindowMinutes: 1440,
    };
    expect(stateFromQuery(queryFromState(state, defaults), defaults)).toEqual(state);
  });

  it("leaves values equal to the defaults out of the query", () => {
    expect(queryFromState(defaults, defaults)).toBe("");
    expect(queryFromState({ ...defaults, protocol: "connect-binary" }, defaults)).toBe(
      "protocol=connect-binary",
    );
  });

  it("ignores a protocol the switch does not offer", () => {
    expect(stateFromQuery("protocol=grpc", defaults).protocol).toBe("connect-json");
  });

  it("refuses plugin URLs that are not http or https", () => {
    for (const url of [
      "javascript:alert(1)",
      "file:///etc/passwd",
      "not a url",
      "data:text/html,x",
    ]) {
      expect(stateFromQuery(`url=${encodeURIComponent(url)}`, defaults).baseUrl).toBe(
        defaults.baseUrl,
      );
    }
  });

  it("drops the trailing slash of a plugin URL", () => {
    expect(stateFromQuery("url=http%3A%2F%2Fh%3A1%2F", defaults).baseUrl).toBe("http://h:1");
  });

  it("falls back on malformed dates, sort orders and windows", () => {
    const state = stateFromQuery("from=2025-13-99&to=yesterday&sort=price.up&sli=7", defaults);
    expect(state.actual.startDate).toBe(defaults.actual.startDate);
    expect(state.actual.endDate).toBe(defaults.actual.endDate);
    expect(state.sort).toEqual(defaults.sort);
    expect(state.sliWindowMinutes).toBe(defaults.sliWindowMinutes);
  });

  it("caps oversized values, tag lists and pin lists", () => {
    const long = "x".repeat(10_000);
    const query = new URLSearchParams([
      ["sku", long],
      ...Array.from({ length: 100 }, (_, i) => ["tag", `k${i}=v`] as [string, string]),
      ...Array.from(
        { length: 100 },
        () => ["pin", "aws|ec2|t3.micro|us-east-1|"] as [string, string],
      ),
    ]).toString();
    const state = stateFromQuery(query, defaults);
    expect(state.resource.sku).toHaveLength(256);
    expect(state.resource.tags).toHaveLength(32);
    expect(state.pins).toHaveLength(24);
  });

  it("skips pins that are malformed instead of failing", () => {
    const state = stateFromQuery(
      "pin=%E0%A4%A&pin=only|three|parts&pin=||||&pin=aws|ec2|t3.micro|us-east-1|",
      defaults,
    );
    expect(state.pins).toEqual([
      { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1", tags: [] },
    ]);
  });

  it("reads a tag without '=' as a key with an empty value", () => {
    expect(stateFromQuery("tag=lonely", defaults).resource.tags).toEqual([["lonely", ""]]);
  });
});
