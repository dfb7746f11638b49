import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Workspace packages export their TypeScript sources under the "source" condition, so tests
// run against src/ without a build step.
export default defineConfig({
  resolve: { conditions: ["source", ...defaultClientConditions] },
  // No "module" condition on the server side: some published ESM builds (OpenTelemetry's) use
  // extensionless imports that only bundlers resolve; Node loads their CommonJS build, and so must
  // the tests.
  ssr: {
    resolve: { conditions: ["source", ...defaultServerConditions.filter((c) => c !== "module")] },
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "playground/test/**/*.test.ts", "bench/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
