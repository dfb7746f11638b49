#!/usr/bin/env node
// Runs the built list-price plugin under the plugin host contract (`--port`, `PORT=<n>` on stdout).
import "../dist/main.js";
