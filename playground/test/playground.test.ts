import { rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import type { RunningServer } from "@costplugin/server";
import { startServer } from "@costplugin/server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BillingPluginFixture } from "./billing-plugin.js";
import { billingSource, startBillingPlugin } from "./billing-plugin.js";
import type { TestBrowser } from "./browser.js";
import { buildPlayground, launchBrowser, screenshot } from "./browser.js";
import { startDevServer } from "./dev-server.js";
import { focusedElement, tabTo } from "./keyboard.js";
import {
  billedResourceId,
  createSecondPlugin,
  dailyCosts,
  rateLimitedSku,
  retryAfterSeconds,
  secondPluginHealth,
} from "./test-plugins.js";

// A real browser on a shared 2-core CI machine: every wait is on a condition, with room to spare.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

const hoursPerMonth = 730;
const protocols = [
  { value: "connect-json", contentType: "application/json" },
  { value: "connect-binary", contentType: "application/proto" },
  { value: "grpc-web", contentType: "application/grpc-web+proto" },
] as const;

let distDir: string;
let pageServer: RunningServer;
let secondServer: RunningServer;
let billing: BillingPluginFixture;
let browser: TestBrowser;

beforeAll(async () => {
  distDir = await buildPlayground();
  pageServer = await startServer({
    plugin: createListPricePlugin(),
    staticDir: distDir,
    logger: false,
  });
  secondServer = await startServer({
    plugin: createSecondPlugin(),
    logger: false,
    cors: { allowedOrigins: [pageServer.url] },
  });
  billing = await startBillingPlugin({ allowedOrigins: [pageServer.url] });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await billing?.close();
  await secondServer?.close();
  await pageServer?.close();
  if (distDir) await rm(distDir, { recursive: true, force: true });
});

/** Calls a method on a server with Connect JSON from Node: the reference answer. */
async function connectJson(
  server: RunningServer,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}/costplugin.v1.${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "connect-protocol-version": "1" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function open(
  query = "",
  viewport?: { width: number; height: number },
  origin = pageServer.url,
): Promise<Page> {
  const page = await browser.newPage(viewport);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${origin}/${query ? `?${query}` : ""}`);
  await page.locator('.health-status:not([data-status="checking"])').waitFor();
  expect(errors).toEqual([]);
  return page;
}

/** A port on 127.0.0.1 where nothing listens (taken from the system, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? "").trim();
}

async function priceIt(page: Page): Promise<{ unitPrice: number; costPerMonth: number }> {
  await page.locator("#price-it").click();
  await page.locator("#projected .projected-monthly").waitFor();
  return {
    unitPrice: Number(await page.locator(".projected-unit-price").getAttribute("data-value")),
    costPerMonth: Number(await page.locator(".projected-monthly").getAttribute("data-value")),
  };
}

async function setField(page: Page, id: string, value: string): Promise<void> {
  await page.locator(`#${id}`).fill(value);
}

describe("playground against the reference plugin", () => {
  it("shows SERVING in the health badge with the plugin's name", async () => {
    const page = await open();
    expect(await text(page, ".health-status")).toBe("SERVING");
    expect(await page.locator(".health-time").textContent()).toMatch(/^checked /);
    await page.locator("#plugin-name:not(:text('…'))").waitFor();
    const expected = await connectJson(pageServer, "CostSourceService/Name", {});
    expect(await text(page, "#plugin-name")).toBe(expected.name);
    await screenshot(page, "desktop-start");
    await page.close();
  });

  it("says a known resource is supported", async () => {
    const page = await open();
    await page.locator('#supports[data-state="supported"]').waitFor();
    expect(await text(page, "#supports .chip")).toBe("Supported");
    await page.close();
  });

  it("says an unknown region is not supported, with the plugin's reason and suggestions", async () => {
    const page = await open();
    await page.locator('#supports[data-state="supported"]').waitFor();
    await setField(page, "resource-region", "mars-1");
    await page.locator('#supports[data-state="unsupported"]').waitFor();
    const expected = await connectJson(pageServer, "CostSourceService/Supports", {
      resource: { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "mars-1" },
    });
    expect(expected.supported ?? false).toBe(false);
    expect(await text(page, "#supports .chip")).toBe("Not supported");
    expect(await text(page, ".supports-reason")).toBe(expected.reason);
    await screenshot(page, "supports-unknown-region");
    // The regions the reason names are offered as buttons; picking one fixes the resource.
    const chip = page.locator(".suggestion-chips button", { hasText: /^us-east-1$/ });
    await chip.click();
    expect(await page.locator("#resource-region").inputValue()).toBe("us-east-1");
    await page.locator('#supports[data-state="supported"]').waitFor();
    await page.close();
  });

  it("prices aws ec2 t3.micro in us-east-1 at the catalogue price times 730", async () => {
    const page = await open();
    const spec = await connectJson(pageServer, "CostSourceService/GetPricingSpec", {
      resource: { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" },
    });
    const catalogue = (spec.spec as { ratePerUnit: number }).ratePerUnit;
    expect(catalogue).toBe(0.0104);
    const { unitPrice, costPerMonth } = await priceIt(page);
    expect(unitPrice).toBe(catalogue);
    expect(costPerMonth).toBeCloseTo(catalogue * hoursPerMonth, 9);
    expect(await text(page, ".projected-monthly")).toBe("$7.59");
    expect(await text(page, ".projected-currency")).toBe("USD");
    await page.locator(".spec-mode").waitFor();
    expect(await text(page, ".spec-mode")).toBe("per_hour");
    await screenshot(page, "projected-cost");
    await page.close();
  });

  it("sorts pinned resources by monthly cost both ways", async () => {
    const page = await open();
    for (const sku of ["m5.large", "t3.micro", "t3.small"]) {
      await setField(page, "resource-sku", sku);
      await priceIt(page);
      await page.locator("#pin-result").click();
      await page
        .locator(
          `#comparison-table tbody tr >> nth=${sku === "m5.large" ? 0 : sku === "t3.micro" ? 1 : 2}`,
        )
        .waitFor();
    }
    await page.locator("#comparison-table .monthly >> nth=2").waitFor();
    const monthly = async () =>
      (await page
        .locator("#comparison-table .monthly")
        .evaluateAll((cells) =>
          cells.map((cell) => Number(cell.getAttribute("data-value"))),
        )) as number[];
    // The default order is ascending by monthly cost.
    const ascending = await monthly();
    expect(ascending).toHaveLength(3);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await page.locator('button.sort[data-sort="costPerMonth"]').click();
    const descending = await monthly();
    expect(descending).toEqual([...ascending].reverse());
    expect(
      await page.locator('th:has(button[data-sort="costPerMonth"])').getAttribute("aria-sort"),
    ).toBe("descending");
    await page.locator('button.sort[data-sort="resource"]').click();
    expect(await page.locator("#comparison-table tbody th").allTextContents()).toEqual([
      "aws ec2 m5.large us-east-1",
      "aws ec2 t3.micro us-east-1",
      "aws ec2 t3.small us-east-1",
    ]);
    // The view, pins included, lives in the page URL: reloading restores it.
    expect(page.url()).toContain("pin=");
    await page.reload();
    await page.locator("#comparison-table .monthly >> nth=2").waitFor();
    expect(await page.locator("#comparison-table tbody th").allTextContents()).toHaveLength(3);
    await screenshot(page, "comparison-table");
    await page.close();
  });

  it("gives the same numbers over every protocol of the switch", async () => {
    const seen: Array<{ unitPrice: number; costPerMonth: number; supported: string }> = [];
    for (const protocol of protocols) {
      const page = await open(`protocol=${protocol.value}&sku=m5.large`);
      const contentTypes = new Set<string>();
      page.on("request", (request) => {
        if (request.url().includes("/costplugin.v1.") && request.method() === "POST") {
          contentTypes.add(request.headers()["content-type"] ?? "");
        }
      });
      expect(await page.locator("#plugin-protocol").inputValue()).toBe(protocol.value);
      await page.locator('#supports[data-state="supported"]').waitFor();
      const projected = page.waitForRequest((request) =>
        request.url().includes("/costplugin.v1.CostSourceService/GetProjectedCost"),
      );
      const priced = await priceIt(page);
      seen.push({ ...priced, supported: await text(page, "#supports .chip") });
      // Request events reach the test asynchronously: wait for the one that matters, then check
      // that every POST seen so far used the protocol's content type.
      expect((await projected).headers()["content-type"]).toBe(protocol.contentType);
      expect([...contentTypes].every((type) => type === protocol.contentType)).toBe(true);
      await page.close();
    }
    expect(seen[0]?.unitPrice).toBeGreaterThan(0);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  it("switches protocol from the page and keeps it in the URL", async () => {
    const page = await open();
    await page.locator("#plugin-protocol").selectOption("grpc-web");
    await page.waitForURL(/protocol=grpc-web/);
    await page.locator('.health-status[data-status="serving"]').waitFor();
    const call = page.locator('details.call[data-method="HealthCheck"]');
    await call.locator("summary").click();
    expect(await call.locator(".call-buf-curl").textContent()).toContain("--protocol grpcweb");
    expect(await call.locator(".call-curl").textContent()).toContain(
      `'${pageServer.url}/costplugin.v1.ObservabilityService/HealthCheck'`,
    );
    await page.close();
  });

  it("says the reference plugin serves no actual costs, with its ErrorDetail", async () => {
    const page = await open();
    await page.locator(".actual-unavailable").waitFor();
    expect(await text(page, "#actual-costs .error-code")).toBe("ERROR_CODE_PLUGIN_NOT_CONFIGURED");
    expect(await text(page, "#actual-costs .error-category")).toBe("ERROR_CATEGORY_CONFIGURATION");
    expect(await text(page, "#actual-costs .error-headline")).toContain("no actual costs");
    expect(await page.locator("#actual-costs form").isHidden()).toBe(true);
    await page.close();
  });

  it("shows SLIs and requests per method in the metrics panel", async () => {
    const page = await open();
    await page.locator('.sli-card[data-sli="availability"]').waitFor();
    await page.locator("#metrics button", { hasText: "Refresh" }).click();
    await page.locator("#metrics .bar-list").waitFor();
    const rows = await page.locator("#metrics .bar-list .bar-label").allTextContents();
    // This page's own calls (Supports, HealthCheck, ...) were counted by the plugin.
    expect(rows).toContain("Supports");
    expect(rows).toContain("HealthCheck");
    // Each bar splits answers from failures: the reference plugin refuses every GetActualCost.
    const row = (method: string) =>
      page
        .locator("#metrics .bar-row", {
          has: page.locator(".bar-label", { hasText: new RegExp(`^${method}$`) }),
        })
        .getAttribute("aria-label");
    expect(await row("GetActualCost")).toMatch(/^GetActualCost: 0 ok, [1-9]\d* failed$/);
    expect(await row("Supports")).toMatch(/^Supports: [1-9]\d* ok, 0 failed$/);
    // Another SLI window asks the plugin for that range and is kept in the URL.
    const sliCall = page.waitForRequest((request) =>
      request.url().includes("/costplugin.v1.ObservabilityService/GetServiceLevelIndicators"),
    );
    await page.locator("#sli-window").selectOption("5");
    const body = JSON.parse((await sliCall).postData() ?? "{}") as {
      timeRange?: { start?: string; end?: string };
    };
    expect(Date.parse(body.timeRange?.end ?? "") - Date.parse(body.timeRange?.start ?? "")).toBe(
      5 * 60_000,
    );
    await page.waitForURL(/sli=5/);
    await page.locator('.sli-card[data-sli="availability"]').waitFor();
    await screenshot(page, "metrics-panel");
    await page.close();
  });

  it("is usable with the keyboard and labels every control", async () => {
    const page = await open();
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll("input, select, button, textarea")]
        .filter((element) => {
          const control = element as HTMLInputElement;
          if (control.closest("[hidden]") || control.getAttribute("aria-hidden") === "true")
            return false;
          const name =
            control.labels?.length ||
            control.getAttribute("aria-label") ||
            (control.tagName === "BUTTON" && control.textContent?.trim());
          return !name;
        })
        .map((element) => element.outerHTML),
    );
    expect(unlabelled).toEqual([]);
    await page.locator("#resource-sku").focus();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("t3.small");
    await page.keyboard.press("Enter");
    await page.locator("#projected .projected-monthly").waitFor();
    await page.close();
  });

  it("fits a phone-width screen without sideways scrolling", async () => {
    const page = await open("", { width: 390, height: 844 });
    await priceIt(page);
    await page.locator("#pin-result").click();
    await page.locator("#comparison-table .monthly").waitFor();
    await screenshot(page, "phone");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });
});

describe("playground against a plugin on another origin", () => {
  it("calls a cross-origin plugin URL from the page", async () => {
    const page = await open(`url=${encodeURIComponent(secondServer.url)}`);
    const targets = new Set<string>();
    page.on("request", (request) => {
      if (request.url().includes("/costplugin.v1.")) targets.add(new URL(request.url()).origin);
    });
    expect(await text(page, ".health-status")).toBe("SERVING");
    await page.locator("#plugin-name", { hasText: "second list prices" }).waitFor();
    const projected = page.waitForRequest((request) =>
      request.url().includes("/costplugin.v1.CostSourceService/GetProjectedCost"),
    );
    const { costPerMonth } = await priceIt(page);
    expect(costPerMonth).toBeCloseTo(0.0104 * hoursPerMonth, 9);
    expect(new URL((await projected).url()).origin).toBe(secondServer.url);
    expect([...targets].every((origin) => origin === secondServer.url)).toBe(true);
    expect(secondServer.url).not.toBe(pageServer.url);
    await page.close();
  });

  it("shows the ErrorDetail of a failing plugin over every protocol", async () => {
    for (const protocol of protocols) {
      const page = await open(
        `url=${encodeURIComponent(secondServer.url)}&protocol=${protocol.value}&sku=${rateLimitedSku}`,
      );
      await page.locator("#price-it").click();
      const error = page.locator("#projected .error-view");
      await error.waitFor();
      expect(await error.getAttribute("data-connect-code")).toBe("resource_exhausted");
      expect(await text(page, "#projected .error-code")).toBe("ERROR_CODE_RATE_LIMITED");
      expect(await text(page, "#projected .error-category")).toBe("ERROR_CATEGORY_TRANSIENT");
      expect(await text(page, "#projected .error-retry-after")).toBe(`${retryAfterSeconds} s`);
      expect(await text(page, "#projected .error-headline")).toContain(
        "the price source is rate limiting this plugin",
      );
      expect(await text(page, "#projected .error-advice")).toContain(
        `try again in ${retryAfterSeconds} s`,
      );
      expect(await error.textContent()).not.toContain("[object Object]");
      if (protocol.value === "grpc-web") await screenshot(page, "error-detail");
      await page.close();
    }
  });

  it("charts a plugin's actual costs with the total and a table", async () => {
    const page = await open(
      `url=${encodeURIComponent(secondServer.url)}&rid=${billedResourceId}&from=2025-03-01&to=2025-03-03`,
    );
    const form = page.locator("#actual-costs form");
    await form.waitFor();
    await form.locator("button[type=submit]").click();
    await page.locator("#actual-costs .actual-total").waitFor();
    const total = dailyCosts.reduce((sum, cost) => sum + cost, 0);
    expect(Number(await page.locator(".actual-total strong").getAttribute("data-value"))).toBe(
      total,
    );
    expect(await page.locator("#actual-costs svg.chart rect.bar").count()).toBe(dailyCosts.length);
    expect(await page.locator(".actual-table tbody tr td:first-child").allTextContents()).toEqual([
      "2025-03-01",
      "2025-03-02",
      "2025-03-03",
    ]);
    await screenshot(page, "actual-costs");
    await page.close();
  });

  it("says plainly when the plugin is not serving, and when it recovers", async () => {
    const page = await open(`url=${encodeURIComponent(secondServer.url)}`);
    expect(await text(page, ".health-status")).toBe("SERVING");
    Object.assign(secondPluginHealth, {
      status: "not_serving",
      message: "price source unreachable",
    });
    try {
      await page.locator(".health button", { hasText: "Check now" }).click();
      await page.locator('.health-status[data-status="not-serving"]').waitFor();
      expect(await text(page, ".health-status")).toBe("NOT SERVING");
      expect(await text(page, ".health-message")).toBe("price source unreachable");
      await screenshot(page, "health-not-serving");
    } finally {
      Object.assign(secondPluginHealth, { status: "serving", message: "" });
    }
    await page.locator(".health button", { hasText: "Check now" }).click();
    await page.locator('.health-status[data-status="serving"]').waitFor();
    await page.close();
  });

  it("refreshes the badge on its own every 15 s", async () => {
    // The page's clock is the browser's fake one: 15 s pass at once, no test waits for them.
    const page = await browser.newPage();
    await page.clock.install();
    await page.goto(`${pageServer.url}/?url=${encodeURIComponent(secondServer.url)}`);
    await page.locator('.health-status[data-status="serving"]').waitFor();
    Object.assign(secondPluginHealth, { status: "not_serving", message: "nightly maintenance" });
    try {
      const healthCheck = page.waitForRequest((request) =>
        request.url().includes("/costplugin.v1.ObservabilityService/HealthCheck"),
      );
      await page.clock.fastForward(16_000);
      await healthCheck;
      await page.locator('.health-status[data-status="not-serving"]').waitFor();
      expect(await text(page, ".health-message")).toBe("nightly maintenance");
    } finally {
      Object.assign(secondPluginHealth, { status: "serving", message: "" });
    }
    await page.clock.fastForward(16_000);
    await page.locator('.health-status[data-status="serving"]').waitFor();
    await page.close();
  });

  it("says plainly when the plugin URL cannot be reached", async () => {
    const page = await open(`url=${encodeURIComponent(`http://127.0.0.1:${await closedPort()}`)}`);
    expect(await text(page, ".health-status")).toBe("UNREACHABLE");
    await page.close();
  });
});

describe("playground against the billing-data plugin", () => {
  const billingQuery = () => `url=${encodeURIComponent(billing.server.url)}`;
  // The form's days, both included; the page asks for [first day 00:00, last day 23:59:59.999].
  const range = { from: "2026-03-01", to: "2026-03-07" };

  it("charts GetActualCost's daily results with the total and a table, as the plugin answers them", async () => {
    const { resourceId } = billing.resource;
    const expected = (await connectJson(billing.server, "CostSourceService/GetActualCost", {
      resourceId,
      start: `${range.from}T00:00:00.000Z`,
      end: `${range.to}T23:59:59.999Z`,
    })) as {
      results: Array<{
        timestamp: string;
        cost: number;
        usageAmount: number;
        usageUnit: string;
        source: string;
      }>;
    };
    expect(expected.results).toHaveLength(7);
    const page = await open(
      `${billingQuery()}&rid=${encodeURIComponent(resourceId)}&from=${range.from}&to=${range.to}`,
    );
    expect(await text(page, ".health-status")).toBe("SERVING");
    await page.locator("#plugin-name", { hasText: billingSource }).waitFor();
    const form = page.locator("#actual-costs form");
    await form.waitFor();
    await form.locator("button[type=submit]").click();
    await page.locator("#actual-costs .actual-total").waitFor();

    const total = expected.results.reduce((sum, row) => sum + row.cost, 0);
    expect(Number(await page.locator(".actual-total strong").getAttribute("data-value"))).toBe(
      total,
    );
    expect(await text(page, ".actual-total")).toContain("over 7 results");
    expect(await page.locator("#actual-costs svg.chart rect.bar").count()).toBe(7);
    const rows = page.locator(".actual-table tbody tr");
    expect(await rows.locator("td:nth-child(1)").allTextContents()).toEqual(
      expected.results.map((row) => row.timestamp.slice(0, 10)),
    );
    expect(
      (await rows
        .locator("td:nth-child(2)")
        .evaluateAll((cells) =>
          cells.map((cell) => Number(cell.getAttribute("data-value"))),
        )) as number[],
    ).toEqual(expected.results.map((row) => row.cost));
    expect(await rows.locator("td:nth-child(3)").allTextContents()).toEqual(
      expected.results.map(() => "24 hour"),
    );
    expect(new Set(await rows.locator("td:nth-child(4)").allTextContents())).toEqual(
      new Set([billingSource]),
    );
    await screenshot(page, "billing-actual-costs");

    // Tag filters go to the plugin: the resource's own tag keeps every day, another none.
    const [tagKey, tagValue] = (billing.resource.tags[0] ?? "").split(":");
    await form.locator("button", { hasText: "Add tag" }).click();
    await page.locator("#actual-tag-key-0").fill(tagKey ?? "");
    await page.locator("#actual-tag-value-0").fill(tagValue ?? "");
    await form.locator("button[type=submit]").click();
    await page.locator("#actual-costs .actual-total").waitFor();
    expect(page.url()).toContain(`atag=${encodeURIComponent(`${tagKey}=${tagValue}`)}`);
    expect(await page.locator("#actual-costs svg.chart rect.bar").count()).toBe(7);
    await page.locator("#actual-tag-value-0").fill("no-such-value");
    await form.locator("button[type=submit]").click();
    await page.locator("#actual-costs .actual-empty").waitFor();
    expect(await text(page, "#actual-costs .actual-empty")).toBe(
      "No costs recorded for this resource in this range.",
    );
    await page.close();
  });

  it("shows the plugin's not_found ErrorDetail for a resource id the store has never seen", async () => {
    const page = await open(`${billingQuery()}&rid=i-unknown&from=${range.from}&to=${range.to}`);
    const form = page.locator("#actual-costs form");
    await form.waitFor();
    await form.locator("button[type=submit]").click();
    const error = page.locator("#actual-costs .actual-result .error-view");
    await error.waitFor();
    expect(await error.getAttribute("data-connect-code")).toBe("not_found");
    expect(await text(page, "#actual-costs .actual-result .error-code")).toBe(
      "ERROR_CODE_RESOURCE_NOT_FOUND",
    );
    expect(await text(page, "#actual-costs .actual-result .error-headline")).toContain("i-unknown");
    await page.close();
  });

  it("prices a stored service with the plugin's projection and says it offers no pricing spec", async () => {
    const { provider, service, region } = billing.resource;
    const expected = await connectJson(billing.server, "CostSourceService/GetProjectedCost", {
      resource: { provider, resourceType: service, region },
    });
    const page = await open(billingQuery());
    // The plugin's reasons name what it stores; the page offers those values as buttons.
    await setField(page, "resource-provider", provider);
    await page.locator('#supports[data-state="unsupported"]').waitFor();
    await page.locator(".suggestion-chips button", { hasText: new RegExp(`^${service}$`) }).click();
    expect(await page.locator("#resource-resourceType").inputValue()).toBe(service);
    await setField(page, "resource-sku", "");
    await setField(page, "resource-region", "mars-1");
    await page.locator(".supports-reason", { hasText: "stored regions" }).waitFor();
    await page.locator(".suggestion-chips button", { hasText: new RegExp(`^${region}$`) }).click();
    expect(await page.locator("#resource-region").inputValue()).toBe(region);
    await page.locator('#supports[data-state="supported"]').waitFor();
    const { unitPrice, costPerMonth } = await priceIt(page);
    expect(unitPrice).toBe(expected.unitPrice);
    expect(costPerMonth).toBe(expected.costPerMonth);
    expect(await text(page, "#projected")).toContain("projection from actual spend");
    // Not a fault of the plugin: said plainly, not shown as an error.
    await page.locator("#projected .spec-not-offered").waitFor();
    expect(await text(page, "#projected .spec-not-offered")).toBe(
      "This plugin does not offer GetPricingSpec (unimplemented), so there is no pricing spec to show.",
    );
    expect(await page.locator("#projected .error-view").count()).toBe(0);
    expect(
      await page.locator('details.call[data-method="GetPricingSpec"] summary .chip').textContent(),
    ).toBe("error");
    await screenshot(page, "billing-projection");
    await page.close();
  });
});

describe("playground with the keyboard alone", () => {
  it("runs the main flow without a mouse: plugin URL, protocol, resource, tags, price, pin, sort, details", async () => {
    const page = await open();
    await page.locator('#supports[data-state="supported"]').waitFor();
    // The first Tab reaches the skip link, which jumps past the header.
    await page.keyboard.press("Tab");
    expect(await focusedElement(page)).toContain("skip-link");

    // Point the page at the second plugin: type the URL, press Enter.
    expect((await tabTo(page, "#plugin-url")).focusVisible).toBe(true);
    await page.keyboard.press("Control+A");
    await page.keyboard.type(secondServer.url);
    await page.keyboard.press("Enter");
    await page.locator("#plugin-name", { hasText: "second list prices" }).waitFor();

    // Change the protocol with the arrow keys.
    expect((await tabTo(page, "#plugin-protocol")).focusVisible).toBe(true);
    await page.keyboard.press("ArrowDown");
    await page.waitForURL(/protocol=connect-binary/);

    // Edit the SKU, add a tag and remove it again: focus follows.
    await tabTo(page, "#resource-sku");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("t3.small");
    expect((await tabTo(page, ".resource-form fieldset.tags > button")).focusVisible).toBe(true);
    await page.keyboard.press("Enter");
    await page.locator("#resource-tag-key-0:focus").waitFor();
    await page.keyboard.type("team");
    await page.keyboard.press("Tab");
    await page.keyboard.type("web");
    await page.waitForURL(/tag=team%3Dweb/);
    await page.keyboard.press("Tab");
    expect(await focusedElement(page)).toContain("Remove tag 1");
    await page.keyboard.press("Enter");
    await page.locator(".resource-form fieldset.tags > button:focus").waitFor();
    expect(await page.locator("#resource-tag-key-0").count()).toBe(0);

    // Price it, pin it, sort the comparison, open a call's details: Enter and Space only.
    await page.locator('#supports[data-state="supported"]').waitFor();
    expect((await tabTo(page, "#price-it")).focusVisible).toBe(true);
    await page.keyboard.press("Enter");
    await page.locator("#projected .projected-monthly").waitFor();
    expect(await text(page, ".projected-monthly")).toBe("$15.18");
    await tabTo(page, "#pin-result");
    await page.keyboard.press("Space");
    await page.locator("#comparison-table .monthly").waitFor();
    await tabTo(page, 'button.sort[data-sort="costPerMonth"]');
    await page.keyboard.press("Enter");
    expect(
      await page.locator('th:has(button[data-sort="costPerMonth"])').getAttribute("aria-sort"),
    ).toBe("descending");
    await tabTo(page, 'details.call[data-method="GetProjectedCost"] > summary', {
      backwards: true,
    });
    await page.keyboard.press("Enter");
    await page.locator('details.call[data-method="GetProjectedCost"][open] .call-curl').waitFor();
    expect(
      await page.locator('details.call[data-method="GetProjectedCost"] .call-curl').textContent(),
    ).toContain(`'${secondServer.url}/costplugin.v1.CostSourceService/GetProjectedCost'`);
    await page.close();
  });
});

describe("playground in Vite's dev server (pnpm dev)", () => {
  it("serves the page with hot reload, starting at VITE_PLUGIN_URL, and talks to the running plugin", async () => {
    const dev = await startDevServer(pageServer.url);
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const sockets: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("websocket", (socket) => sockets.push(socket.url()));
      await page.goto(`${dev.url}/`);
      // The URL field starts at VITE_PLUGIN_URL: the plugin runs on another origin than the page.
      await page.locator('.health-status[data-status="serving"]').waitFor();
      expect(await page.locator("#plugin-url").inputValue()).toBe(pageServer.url);
      await page.locator("#plugin-name:not(:text('…'))").waitFor();
      const { costPerMonth } = await priceIt(page);
      expect(costPerMonth).toBeCloseTo(0.0104 * hoursPerMonth, 9);
      // Vite's client is in the page and its hot-reload socket is open on the dev server.
      expect(await page.locator('script[src="/@vite/client"]').count()).toBe(1);
      expect(sockets.some((url) => url.startsWith(dev.url.replace("http:", "ws:")))).toBe(true);
      expect(errors).toEqual([]);
      await screenshot(page, "dev-server");
      await page.close();
    } finally {
      await dev.close();
    }
  });
});
