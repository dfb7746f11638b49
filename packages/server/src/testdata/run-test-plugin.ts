// A plugin process for tests: the test plugin behind the real host contract.
import { runPlugin } from "../run-plugin.js";
import { createTestPlugin } from "./test-plugin.js";

await runPlugin(createTestPlugin().plugin);
