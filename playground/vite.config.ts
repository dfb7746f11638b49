import { defaultClientConditions, defineConfig } from "vite";

// Workspace packages export their TypeScript sources under the "source" condition: the dev server
// and the production build both compile them directly, so no `tsc -b` is needed first.
export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  base: "./",
  resolve: { conditions: ["source", ...defaultClientConditions] },
  // The dev server runs next to a plugin on another port; a build is served by the plugin itself.
  // Decided by the command, not by NODE_ENV, so a build made inside a test runner is the same.
  define: { __PLAYGROUND_DEV_SERVER__: JSON.stringify(command === "serve") },
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 4173 },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: true,
    sourcemap: false,
  },
}));
