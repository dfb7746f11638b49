import { rm } from "node:fs/promises";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import type { RunningServer } from "@costplugin/server";
import { startServer } from "@costplugin/server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./browser.js";
import { buildPlayground, launchBrowser, screenshot } from "./browser.js";
import {
  billedResourceId,
  createSecondPlugin,
  dailyCosts,
  rateLimitedSku,
  retryAfterSeconds,
  secondPluginHealth,
} from "./test-plugins.js";

const hoursPerMonth = 730;
const protocols = [
  { value: "connect-json", contentType: "application/json" },
  { value: "connect-binary", contentType: "application/proto" },
  { value: "grpc-web", contentType: "application/grpc-web+proto" },
] as const;

let distDir: string;
let pageServer: RunningServer;
let secondServer: RunningServer;
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
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
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

async function open(query = "", viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage(viewport);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${pageServer.url}/${query ? `?${query}` : ""}`);
  await page.locator('.health-status:not([data-status="checking"])').waitFor();
  expect(errors).toEqual([]);
  return page;
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
      const priced = await priceIt(page);
      seen.push({ ...priced, supported: await text(page, "#supports .chip") });
      expect([...contentTypes]).toEqual([protocol.contentType]);
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
    const { costPerMonth } = await priceIt(page);
    expect(costPerMonth).toBeCloseTo(0.0104 * hoursPerMonth, 9);
    expect([...targets]).toEqual([secondServer.url]);
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

  it("says plainly when the plugin URL cannot be reached", async () => {
    const page = await open(`url=${encodeURIComponent("http://127.0.0.1:9")}`);
    expect(await text(page, ".health-status")).toBe("UNREACHABLE");
    await page.close();
  });
});
