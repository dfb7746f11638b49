import { ErrorCode } from "@costplugin/proto";
import { definePlugin, PluginError } from "@costplugin/sdk";
import { runPlugin } from "@costplugin/server";

const hourly: Record<string, number> = { "t3.micro": 0.0104, "t3.small": 0.0208 };

const plugin = definePlugin({
  name: "tiny-ec2",
  // Supports is answered from this declaration, with a reason naming what is covered.
  coverage: { providers: ["aws"], resourceTypes: ["ec2"], regions: ["us-east-1"] },
  getProjectedCost({ resource }) {
    // The SDK has already checked that resource, provider and resource_type are present.
    const price = hourly[resource?.sku ?? ""];
    if (price === undefined) {
      throw new PluginError(ErrorCode.RESOURCE_NOT_FOUND, `no price for sku "${resource?.sku}"`);
    }
    return {
      unitPrice: price,
      currency: "USD",
      costPerMonth: price * 730,
      billingDetail: "on-demand",
    };
  },
});

await runPlugin(plugin); // gRPC + gRPC-web + Connect on one port, the host contract below
