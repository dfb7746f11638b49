import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ErrorDetail } from "@costplugin/proto";
import { ErrorCategory, ErrorCode, HealthCheckResponse_Status } from "@costplugin/proto";
import { errorDetailFromConnectError } from "@costplugin/sdk";
import { createTestClient } from "@costplugin/sdk/testing";
import { describe, expect, it } from "vitest";
import { createListPricePlugin } from "./list-price-plugin.js";
import { resourceTypeDefinitions } from "./resource-types.js";

const plugin = createListPricePlugin();
const { costSource, observability } = createTestClient(plugin, { logger: silentLogger() });

function silentLogger() {
  const ignore = () => {};
  return { error: ignore, warn: ignore, info: ignore, debug: ignore };
}

interface ResourceInit {
  provider: string;
  resourceType: string;
  sku?: string;
  region?: string;
  tags?: Record<string, string>;
}

function resource(init: ResourceInit) {
  return { sku: "", region: "", tags: {}, ...init };
}

async function expectPluginError(
  call: Promise<unknown>,
  code: ErrorCode,
  connectCode: Code,
): Promise<ErrorDetail> {
  const error = await call.then(
    () => expect.unreachable("the call succeeded"),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConnectError);
  const connectError = error as ConnectError;
  expect(Code[connectError.code]).toBe(Code[connectCode]);
  const detail = errorDetailFromConnectError(connectError);
  expect(detail).toBeDefined();
  expect(ErrorCode[detail?.code ?? 0]).toBe(ErrorCode[code]);
  return detail as ErrorDetail;
}

const ec2Spellings = [
  "ec2",
  "EC2",
  " instance ",
  "vm",
  "compute",
  "aws_instance",
  "AWS_INSTANCE",
  "aws:ec2/instance:Instance",
  "AWS:EC2/INSTANCE:INSTANCE",
  "AWS::EC2::Instance",
];

const aliasCases: { provider: string; spellings: string[]; sku: string; region: string }[] = [
  { provider: "aws", spellings: ec2Spellings, sku: "t3.micro", region: "us-east-1" },
  {
    provider: "aws",
    spellings: ["ebs", "aws_ebs_volume", "aws:ebs/volume:Volume", "AWS::EC2::Volume", "volume"],
    sku: "gp3",
    region: "us-east-1",
  },
  {
    provider: "aws",
    spellings: [
      "s3",
      "aws_s3_bucket",
      "aws:s3/bucket:Bucket",
      "aws:s3/bucketV2:BucketV2",
      "AWS::S3::Bucket",
    ],
    sku: "STANDARD",
    region: "eu-west-1",
  },
  {
    provider: "aws",
    spellings: ["rds", "aws_db_instance", "aws:rds/instance:Instance", "AWS::RDS::DBInstance"],
    sku: "db.m5.large",
    region: "us-east-1",
  },
  {
    provider: "aws",
    spellings: ["lambda", "aws_lambda_function", "aws:lambda/function:Function", "function"],
    sku: "x86_64",
    region: "us-west-2",
  },
  {
    provider: "azure",
    spellings: [
      "vm",
      "compute",
      "azurerm_linux_virtual_machine",
      "azurerm_virtual_machine",
      "azure-native:compute:VirtualMachine",
      "Microsoft.Compute/virtualMachines",
    ],
    sku: "Standard_D2s_v5",
    region: "eastus",
  },
  {
    provider: "gcp",
    spellings: ["compute", "vm", "gce", "google_compute_instance", "gcp:compute/instance:Instance"],
    sku: "e2-standard-2",
    region: "us-central1",
  },
];

describe("createListPricePlugin", () => {
  describe("Name", () => {
    it("answers the plugin's display name", async () => {
      expect((await costSource.name({})).name).toBe("list-price");
    });
  });

  describe("resource type aliases", () => {
    for (const { provider, spellings, sku, region } of aliasCases) {
      it(`resolves every spelling of ${provider}/${spellings[0]} to the same catalogue price`, async () => {
        const answers = await Promise.all(
          spellings.map((resourceType) =>
            costSource.getPricingSpec({
              resource: resource({ provider, resourceType, sku, region }),
            }),
          ),
        );
        const canonical = answers.map(({ spec }) => ({
          provider: spec?.provider,
          resourceType: spec?.resourceType,
          sku: spec?.sku,
          region: spec?.region,
          rate: spec?.ratePerUnit,
        }));
        expect(new Set(canonical.map((value) => JSON.stringify(value))).size).toBe(1);
        expect(
          answers.map(({ spec }) => spec?.pluginMetadata.matched_alias?.toLowerCase()),
        ).toEqual(spellings.map((spelling) => spelling.trim().toLowerCase()));
      });
    }

    it("prices every declared spelling, Terraform and Pulumi ones included, like its canonical type", async () => {
      const samples: Record<string, { sku: string; region: string }> = {
        "aws/ec2": { sku: "m5.large", region: "eu-west-1" },
        "aws/ebs": { sku: "gp3", region: "us-west-2" },
        "aws/s3": { sku: "STANDARD", region: "ap-southeast-1" },
        "aws/rds": { sku: "db.t3.micro", region: "us-east-1" },
        "aws/lambda": { sku: "arm64", region: "eu-west-1" },
        "azure/vm": { sku: "Standard_B2s", region: "westus2" },
        "gcp/compute": { sku: "n2-standard-4", region: "us-east1" },
      };
      for (const definition of resourceTypeDefinitions) {
        const { provider, resourceType: canonical } = definition;
        const sample = samples[`${provider}/${canonical}`];
        if (!sample) throw new Error(`no sample for ${provider}/${canonical}`);
        const expected = await costSource.getPricingSpec({
          resource: resource({ provider, resourceType: canonical, ...sample }),
        });
        for (const { alias, form, operatingSystem } of definition.aliases) {
          const call = costSource.getPricingSpec({
            resource: resource({ provider, resourceType: alias, ...sample }),
          });
          if (operatingSystem === "windows") {
            await expectPluginError(call, ErrorCode.RESOURCE_NOT_FOUND, Code.NotFound);
            continue;
          }
          const { spec } = await call;
          expect({ alias, rate: spec?.ratePerUnit, type: spec?.resourceType }).toEqual({
            alias,
            rate: expected.spec?.ratePerUnit,
            type: canonical,
          });
          expect(spec?.pluginMetadata).toMatchObject({ matched_alias: alias, alias_form: form });
        }
      }
      for (const definition of resourceTypeDefinitions) {
        const forms = new Set(definition.aliases.map((alias) => alias.form));
        expect([...forms], definition.resourceType).toEqual(
          expect.arrayContaining(["short", "terraform", "pulumi"]),
        );
      }
    });

    it("accepts provider spellings azurerm, azure-native, google and upper case", async () => {
      const spellings = [
        ["AWS", "ec2", "t3.micro", "us-east-1"],
        ["azurerm", "azurerm_linux_virtual_machine", "Standard_B1s", "eastus"],
        ["Azure-Native", "vm", "Standard_B1s", "eastus"],
        ["google", "google_compute_instance", "e2-micro", "us-central1"],
        ["GCP", "compute", "e2-micro", "us-central1"],
      ] as const;
      for (const [provider, resourceType, sku, region] of spellings) {
        const { supported, reason } = await costSource.supports({
          resource: resource({ provider, resourceType, sku, region }),
        });
        expect({ provider, supported, reason }).toMatchObject({ supported: true });
      }
    });

    it("answers the canonical provider, resource type, SKU and region whatever the spelling", async () => {
      const { spec } = await costSource.getPricingSpec({
        resource: resource({
          provider: "AzureRM",
          resourceType: "AZURERM_LINUX_VIRTUAL_MACHINE",
          sku: "d2s v5",
          region: "East US",
        }),
      });
      expect(spec).toMatchObject({
        provider: "azure",
        resourceType: "vm",
        sku: "Standard_D2s_v5",
        region: "eastus",
        ratePerUnit: 0.096,
      });
    });

    it("reads availability zones and Compute Engine zones as their region", async () => {
      const aws = await costSource.getPricingSpec({
        resource: resource({
          provider: "aws",
          resourceType: "ec2",
          sku: "t3.micro",
          region: "eu-west-1b",
        }),
      });
      const gcp = await costSource.getPricingSpec({
        resource: resource({
          provider: "gcp",
          resourceType: "compute",
          sku: "zones/us-central1-a/machineTypes/n2-standard-2",
          region: "us-central1-a",
        }),
      });
      expect([aws.spec?.region, aws.spec?.ratePerUnit]).toEqual(["eu-west-1", 0.0114]);
      expect([gcp.spec?.region, gcp.spec?.sku, gcp.spec?.ratePerUnit]).toEqual([
        "us-central1",
        "n2-standard-2",
        0.097118,
      ]);
    });

    it("takes the SKU and region from tags when the fields are empty", async () => {
      const { spec } = await costSource.getPricingSpec({
        resource: resource({
          provider: "aws",
          resourceType: "aws_db_instance",
          tags: { instance_class: "db.t3.micro", Region: "us-west-2" },
        }),
      });
      expect(spec).toMatchObject({ sku: "db.t3.micro", region: "us-west-2", ratePerUnit: 0.017 });
      expect(spec?.pluginMetadata.sku_origin).toBe("tag instance_class");
    });

    it("accepts RDS classes without the db. prefix and Lambda architecture synonyms", async () => {
      const rds = await costSource.getPricingSpec({
        resource: resource({
          provider: "aws",
          resourceType: "rds",
          sku: "r5.large",
          region: "us-east-1",
        }),
      });
      const lambda = await costSource.getPricingSpec({
        resource: resource({
          provider: "aws",
          resourceType: "lambda",
          sku: "aarch64",
          region: "us-east-1",
        }),
      });
      expect(rds.spec?.sku).toBe("db.r5.large");
      expect(lambda.spec?.sku).toBe("arm64");
    });
  });

  describe("Supports", () => {
    it("says a priced resource is supported and names its as-of date", async () => {
      const answer = await costSource.supports({
        resource: resource({
          provider: "aws",
          resourceType: "ec2",
          sku: "t3.micro",
          region: "us-east-1",
        }),
      });
      expect(answer.supported).toBe(true);
      expect(answer.reason).toBe(
        "aws/ec2 t3.micro in us-east-1 has a list price (as of 2025-01-01)",
      );
    });

    it("names the known regions when a resource type is asked about without a region", async () => {
      const answer = await costSource.supports({
        resource: resource({ provider: "aws", resourceType: "aws_instance" }),
      });
      expect(answer).toMatchObject({
        supported: true,
        reason:
          "aws/ec2 is priced in 4 regions: ap-southeast-1, eu-west-1, us-east-1, us-west-2; name a region and an instance type for a price",
      });
    });

    it("asks only for a region when the resource type has a default SKU", async () => {
      const answer = await costSource.supports({
        resource: resource({ provider: "aws", resourceType: "aws_s3_bucket" }),
      });
      expect(answer).toMatchObject({
        supported: true,
        reason:
          "aws/s3 is priced in 4 regions: ap-southeast-1, eu-west-1, us-east-1, us-west-2; name a region (the storage class defaults to STANDARD) for a price",
      });
    });

    it("names the known regions of the resource type for an unknown region", async () => {
      const answer = await costSource.supports({
        resource: resource({
          provider: "aws",
          resourceType: "ec2",
          sku: "t3.micro",
          region: "mars-1",
        }),
      });
      expect(answer).toEqual(
        expect.objectContaining({
          supported: false,
          reason:
            'region "mars-1" is not in the catalogue for aws/ec2; known regions: ap-southeast-1, eu-west-1, us-east-1, us-west-2',
        }),
      );
    });

    it("lists the nearest known SKUs for an unknown SKU", async () => {
      const answer = await costSource.supports({
        resource: resource({
          provider: "aws",
          resourceType: "ec2",
          sku: "t3.mikro",
          region: "us-east-1",
        }),
      });
      expect(answer.supported).toBe(false);
      expect(answer.reason).toBe(
        'instance type "t3.mikro" is not in the catalogue for aws/ec2 in us-east-1 (43 listed); nearest known: t3.micro, t3.nano, t3.large',
      );
    });

    it("lists the known providers for an unknown provider", async () => {
      const answer = await costSource.supports({
        resource: resource({ provider: "oracle", resourceType: "vm" }),
      });
      expect(answer).toMatchObject({
        supported: false,
        reason:
          'provider "oracle" is not in the catalogue; known providers: aws (also amazon), azure (also azurerm, azure-native), gcp (also google, google-beta)',
      });
    });

    it("lists the provider's known resource types for an unknown resource type", async () => {
      const answer = await costSource.supports({
        resource: resource({ provider: "aws", resourceType: "aws_nat_gateway" }),
      });
      expect(answer.supported).toBe(false);
      expect(answer.reason).toMatch(
        /^resource type "aws_nat_gateway" is not in the catalogue for aws; known types: ec2, ebs, s3, rds, lambda/,
      );
    });

    it("says which provider a resource type of another provider belongs to", async () => {
      const answer = await costSource.supports({
        resource: resource({ provider: "aws", resourceType: "google_compute_instance" }),
      });
      expect(answer).toMatchObject({
        supported: false,
        reason: 'resource type "google_compute_instance" belongs to provider gcp, not aws',
      });
    });

    it("says plainly that Windows machines are not priced", async () => {
      const answer = await costSource.supports({
        resource: resource({
          provider: "azurerm",
          resourceType: "azurerm_windows_virtual_machine",
          sku: "Standard_D2s_v5",
          region: "eastus",
        }),
      });
      expect(answer.supported).toBe(false);
      expect(answer.reason).toBe(
        "only Linux prices are in the catalogue for azure/vm; azurerm_windows_virtual_machine is a Windows machine, whose licence charge is not priced here",
      );
    });

    it("asks for a SKU when a region is given for a resource type without a default SKU", async () => {
      const answer = await costSource.supports({
        resource: resource({ provider: "gcp", resourceType: "compute", region: "us-east1" }),
      });
      expect(answer).toMatchObject({
        supported: true,
        reason:
          "gcp/compute is priced in us-east1 for 19 machine types; name a machine type for a price",
      });
    });
  });

  describe("GetProjectedCost", () => {
    it("multiplies the hourly price by exactly 730 hours", async () => {
      const answer = await costSource.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "ec2",
          sku: "t3.micro",
          region: "us-east-1",
        }),
      });
      expect(answer).toMatchObject({
        unitPrice: 0.0104,
        currency: "USD",
        costPerMonth: 7.592,
        billingDetail: "on-demand Linux list price, shared tenancy, 730 h/month",
      });
    });

    it("gives decimal-exact monthly costs for every hourly price in the catalogue", async () => {
      const hourly = plugin.catalogue.entries.filter((entry) => entry.billingMode === "per_hour");
      for (const entry of hourly) {
        const answer = await costSource.getProjectedCost({
          resource: resource({
            provider: entry.provider,
            resourceType: entry.resourceType,
            sku: entry.sku,
            region: entry.region,
          }),
        });
        const exact = Number((Math.round(entry.rate * 1e7) * 730) / 1e7);
        expect({ sku: entry.sku, cost: answer.costPerMonth }).toEqual({
          sku: entry.sku,
          cost: exact,
        });
      }
    });

    it("uses the real regional price where it differs", async () => {
      const costs = await Promise.all(
        ["us-east-1", "eu-west-1", "ap-southeast-1"].map(async (region) => {
          const answer = await costSource.getProjectedCost({
            resource: resource({ provider: "aws", resourceType: "ec2", sku: "m5.large", region }),
          });
          return answer.unitPrice;
        }),
      );
      expect(costs).toEqual([0.096, 0.107, 0.12]);
    });

    it("prices an EBS volume by the GB-month times the size_gb tag", async () => {
      const answer = await costSource.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "aws_ebs_volume",
          sku: "gp3",
          region: "us-east-1",
          tags: { size_gb: "100" },
        }),
      });
      expect(answer).toMatchObject({ unitPrice: 0.08, costPerMonth: 8 });
      expect(answer.billingDetail).toContain("100 GB from tag size_gb");
    });

    it("reads Terraform's size attribute and falls back to 8 GB without a size tag", async () => {
      const sized = await costSource.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "ebs",
          sku: "gp2",
          region: "eu-west-1",
          tags: { Size: "500" },
        }),
      });
      const unsized = await costSource.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "ebs",
          sku: "sc1",
          region: "us-east-1",
        }),
      });
      expect(sized.costPerMonth).toBe(55);
      expect(unsized.costPerMonth).toBe(0.12);
      expect(unsized.billingDetail).toContain("8 GB assumed (no size_gb tag)");
    });

    it("prices S3 Standard by the size_gb tag and defaults the storage class", async () => {
      const answer = await costSource.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "aws_s3_bucket",
          region: "ap-southeast-1",
          tags: { size_gb: "2048" },
        }),
      });
      expect(answer).toMatchObject({ unitPrice: 0.025, costPerMonth: 51.2 });
      expect(answer.billingDetail).toContain(
        "STANDARD (default storage class), 2048 GB from tag size_gb",
      );
    });

    it("prices Lambda from the default usage when no tags are given, free tier ignored", async () => {
      const answer = await costSource.getProjectedCost({
        resource: resource({ provider: "aws", resourceType: "lambda", region: "us-east-1" }),
      });
      // 1,000,000 requests × 0.20/M + 1,000,000 × 0.125 GB × 0.1 s × 0.0000166667
      expect(answer.unitPrice).toBe(0.0000166667);
      expect(answer.costPerMonth).toBe(0.40833375);
      expect(answer.billingDetail).toContain("free tier");
      expect(answer.billingDetail).toContain("1000000 requests/month assumed");
    });

    it("prices Lambda from request and GB-second tags", async () => {
      const answer = await costSource.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "aws_lambda_function",
          sku: "arm64",
          region: "eu-west-1",
          tags: { requests_per_month: "5000000", gb_seconds_per_month: "100000" },
        }),
      });
      expect(answer.costPerMonth).toBe(2.33334);
    });

    it("derives Lambda GB-seconds from memory_size and duration_ms tags", async () => {
      const answer = await costSource.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "lambda",
          region: "us-east-1",
          tags: { monthly_requests: "2e6", memory_size: "1024", duration_ms: "250" },
        }),
      });
      // 2e6 × 0.2e-6 = 0.4; 2e6 × 1 GB × 0.25 s = 500000 GB-s × 0.0000166667 = 8.33335
      expect(answer.costPerMonth).toBe(8.73335);
    });

    it("answers UNSUPPORTED_REGION naming the known regions", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({
            provider: "aws",
            resourceType: "ec2",
            sku: "t3.micro",
            region: "mars-1",
          }),
        }),
        ErrorCode.UNSUPPORTED_REGION,
        Code.Unimplemented,
      );
      expect(detail.category).toBe(ErrorCategory.PERMANENT);
      expect(detail.message).toBe(
        'region "mars-1" is not in the catalogue for aws/ec2; known regions: ap-southeast-1, eu-west-1, us-east-1, us-west-2',
      );
      expect(detail.details).toMatchObject({
        region: "mars-1",
        known_regions: "ap-southeast-1,eu-west-1,us-east-1,us-west-2",
      });
    });

    it("answers RESOURCE_NOT_FOUND with the nearest known SKUs", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({
            provider: "azure",
            resourceType: "vm",
            sku: "Standard_D2s_v9",
            region: "westus2",
          }),
        }),
        ErrorCode.RESOURCE_NOT_FOUND,
        Code.NotFound,
      );
      expect(detail.message).toMatch(
        /^VM size "Standard_D2s_v9" is not in the catalogue for azure\/vm in westus2 \(21 listed\); nearest known: Standard_D2s_v3, Standard_D2s_v5/,
      );
      expect(detail.details.nearest_skus?.split(",")).toHaveLength(3);
    });

    it("answers INVALID_PROVIDER listing the providers", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({ provider: "alibaba", resourceType: "ecs" }),
        }),
        ErrorCode.INVALID_PROVIDER,
        Code.Unimplemented,
      );
      expect(detail.category).toBe(ErrorCategory.CONFIGURATION);
      expect(detail.details.known_providers).toBe("aws,azure,gcp");
    });

    it("answers INVALID_RESOURCE for an unknown resource type", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({ provider: "gcp", resourceType: "google_sql_database_instance" }),
        }),
        ErrorCode.INVALID_RESOURCE,
        Code.InvalidArgument,
      );
      expect(detail.message).toContain("known types: compute");
    });

    it("answers INVALID_RESOURCE asking for a SKU when the resource type needs one", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({ provider: "aws", resourceType: "ec2", region: "us-east-1" }),
        }),
        ErrorCode.INVALID_RESOURCE,
        Code.InvalidArgument,
      );
      expect(detail.message).toBe(
        "sku is empty; give the instance type of aws/ec2, e.g. t3.nano, t3.micro, t3.small",
      );
    });

    it("answers INVALID_RESOURCE naming the known regions when the region is empty", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({ provider: "azure", resourceType: "vm", sku: "Standard_B2s" }),
        }),
        ErrorCode.INVALID_RESOURCE,
        Code.InvalidArgument,
      );
      expect(detail.message).toBe("region is empty; azure/vm is priced in: eastus, westus2");
    });

    it("answers RESOURCE_NOT_FOUND for a Windows machine", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({
            provider: "aws",
            resourceType: "ec2",
            sku: "t3.micro",
            region: "us-east-1",
            tags: { os: "Windows" },
          }),
        }),
        ErrorCode.RESOURCE_NOT_FOUND,
        Code.NotFound,
      );
      expect(detail.message).toBe(
        'only Linux prices without a licence charge are in the catalogue for aws/ec2; tag "os" says "Windows"',
      );
    });

    for (const value of [
      "abc",
      "",
      "-5",
      "1e999",
      "10 GB",
      "0x10",
      "Infinity",
      "NaN",
      "2000000000",
    ]) {
      it(`answers INVALID_RESOURCE naming the tag for size_gb ${JSON.stringify(value)}`, async () => {
        const detail = await expectPluginError(
          costSource.getProjectedCost({
            resource: resource({
              provider: "aws",
              resourceType: "ebs",
              sku: "gp3",
              region: "us-east-1",
              tags: { size_gb: value },
            }),
          }),
          ErrorCode.INVALID_RESOURCE,
          Code.InvalidArgument,
        );
        expect(detail.message).toBe(
          `tag "size_gb" must be a number of GB from 0 to 1000000000, got ${JSON.stringify(value)}`,
        );
        expect(detail.details.tag).toBe("size_gb");
      });
    }

    it("answers INVALID_RESOURCE naming a Lambda memory tag out of range", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({
            provider: "aws",
            resourceType: "lambda",
            region: "us-east-1",
            tags: { memory_size: "64" },
          }),
        }),
        ErrorCode.INVALID_RESOURCE,
        Code.InvalidArgument,
      );
      expect(detail.message).toBe(
        'tag "memory_size" must be a number of MB from 128 to 10240, got "64"',
      );
    });
  });

  describe("GetPricingSpec", () => {
    it("describes an hourly price with its source, as-of date, version and matched alias", async () => {
      const { spec } = await costSource.getPricingSpec({
        resource: resource({
          provider: "aws",
          resourceType: "aws:ec2/instance:Instance",
          sku: "t3.micro",
          region: "us-east-1",
        }),
      });
      expect(spec).toMatchObject({
        provider: "aws",
        resourceType: "ec2",
        sku: "t3.micro",
        region: "us-east-1",
        billingMode: "per_hour",
        ratePerUnit: 0.0104,
        currency: "USD",
        source: "https://aws.amazon.com/ec2/pricing/on-demand/",
        description:
          "Amazon EC2 instance t3.micro in us-east-1: 0.0104 USD per hour; on-demand Linux list price, shared tenancy",
      });
      expect(spec?.metricHints.map(({ metric, unit }) => ({ metric, unit }))).toEqual([
        { metric: "instance_hours", unit: "hour" },
      ]);
      expect(spec?.pluginMetadata).toEqual({
        as_of: "2025-01-01",
        catalogue_version: plugin.catalogue.version,
        matched_alias: "aws:ec2/instance:Instance",
        alias_form: "pulumi",
        pricing_model: "on_demand",
        sku_origin: "sku",
        unit: "hour",
        hours_per_month: "730",
        operating_system: "linux",
      });
    });

    it("describes EBS storage per GB-month with a storage_gb hint", async () => {
      const { spec } = await costSource.getPricingSpec({
        resource: resource({
          provider: "aws",
          resourceType: "ebs",
          sku: "GP3",
          region: "us-east-1",
        }),
      });
      expect(spec).toMatchObject({ sku: "gp3", billingMode: "per_gb_month", ratePerUnit: 0.08 });
      expect(spec?.metricHints.map(({ metric, unit }) => `${metric}/${unit}`)).toEqual([
        "storage_gb/GB-month",
      ]);
      expect(spec?.source).toBe("https://aws.amazon.com/ebs/pricing/");
    });

    it("describes Lambda per GB-second with its request price in the metadata", async () => {
      const { spec } = await costSource.getPricingSpec({
        resource: resource({ provider: "aws", resourceType: "lambda", region: "ap-southeast-1" }),
      });
      expect(spec).toMatchObject({
        sku: "x86_64",
        billingMode: "per_gb_second",
        ratePerUnit: 0.0000166667,
      });
      expect(spec?.pluginMetadata).toMatchObject({
        rate_per_million_requests: "0.2",
        rate_per_request: "0.0000002",
        sku_origin: "default",
      });
      expect(spec?.metricHints.map(({ metric, unit }) => `${metric}/${unit}`)).toEqual([
        "compute_gb_seconds/GB-second",
        "requests/request",
      ]);
    });

    it("answers the same errors as GetProjectedCost", async () => {
      await expectPluginError(
        costSource.getPricingSpec({
          resource: resource({
            provider: "gcp",
            resourceType: "compute",
            sku: "e2-micro",
            region: "europe-north9",
          }),
        }),
        ErrorCode.UNSUPPORTED_REGION,
        Code.Unimplemented,
      );
    });
  });

  describe("GetActualCost", () => {
    it("answers PLUGIN_NOT_CONFIGURED pointing to the billing-data plugin", async () => {
      const detail = await expectPluginError(
        costSource.getActualCost({
          resourceId: "i-0123456789abcdef0",
          start: timestampFromDate(new Date("2025-01-01T00:00:00Z")),
          end: timestampFromDate(new Date("2025-01-02T00:00:00Z")),
        }),
        ErrorCode.PLUGIN_NOT_CONFIGURED,
        Code.FailedPrecondition,
      );
      expect(detail.category).toBe(ErrorCategory.CONFIGURATION);
      expect(detail.message).toBe(
        'plugin "list-price" holds public list prices, not billing data, so it has no actual costs; ask the billing-data plugin (@costplugin/plugin-billing) for GetActualCost',
      );
      expect(detail.details).toMatchObject({
        reason: "no_billing_data",
        actual_cost_plugin: "@costplugin/plugin-billing",
      });
    });
  });

  describe("hostile input", () => {
    it("rejects over-long fields before they reach the plugin and keeps serving", async () => {
      await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({
            provider: "aws",
            resourceType: "ec2",
            sku: "x".repeat(100_000),
            region: "us-east-1",
          }),
        }),
        ErrorCode.INVALID_RESOURCE,
        Code.InvalidArgument,
      );
      const next = await costSource.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "ec2",
          sku: "t3.micro",
          region: "us-east-1",
        }),
      });
      expect(next.costPerMonth).toBe(7.592);
    });

    it("echoes at most 64 characters of a long unknown SKU", async () => {
      const sku = `t3.${"m".repeat(200)}`;
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({ provider: "aws", resourceType: "ec2", sku, region: "us-east-1" }),
        }),
        ErrorCode.RESOURCE_NOT_FOUND,
        Code.NotFound,
      );
      expect(detail.message).toContain(`"t3.${"m".repeat(61)}…"`);
      expect(detail.message).not.toContain("m".repeat(62));
      expect(detail.details.sku).toHaveLength(65);
    });

    it("answers unicode look-alikes with the nearest real SKU", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({
            provider: "aws",
            resourceType: "ec2",
            sku: "t3.mícro",
            region: "us-east-1",
          }),
        }),
        ErrorCode.RESOURCE_NOT_FOUND,
        Code.NotFound,
      );
      expect(detail.message).toContain('"t3.mícro"');
      expect(detail.details.nearest_skus?.split(",")[0]).toBe("t3.micro");
    });

    it("quotes emoji and quotes, and receives lone surrogates as U+FFFD", async () => {
      const detail = await expectPluginError(
        costSource.getProjectedCost({
          resource: resource({ provider: 'aws"\u{1F4B8}\ud800', resourceType: "ec2" }),
        }),
        ErrorCode.INVALID_PROVIDER,
        Code.Unimplemented,
      );
      expect(detail.message).toContain('provider "aws\\"\u{1F4B8}\ufffd" is not in the catalogue');
    });

    it("treats empty tag maps, empty tag values and blank tag keys as absent or invalid, never as a crash", async () => {
      const answers = await Promise.all([
        costSource.getProjectedCost({
          resource: resource({
            provider: "aws",
            resourceType: "s3",
            region: "us-east-1",
            tags: {},
          }),
        }),
        costSource.getProjectedCost({
          resource: resource({
            provider: "aws",
            resourceType: "s3",
            region: "us-east-1",
            tags: { "": "" },
          }),
        }),
        costSource.getProjectedCost({
          resource: resource({
            provider: "aws",
            resourceType: "s3",
            sku: "",
            region: "",
            tags: { region: "us-east-1", storage_class: "" },
          }),
        }),
      ]);
      expect(answers.map((answer) => answer.costPerMonth)).toEqual([0.023, 0.023, 0.023]);
    });

    it("ignores keys such as __proto__ and constructor in tags and SKUs", async () => {
      const tags = JSON.parse('{"__proto__": "x", "constructor": "y"}') as Record<string, string>;
      const answer = await costSource.supports({
        resource: resource({
          provider: "aws",
          resourceType: "lambda",
          sku: "constructor",
          region: "us-east-1",
          tags,
        }),
      });
      expect(answer.supported).toBe(false);
      expect(answer.reason).toMatch(/^architecture "constructor" is not in the catalogue/);
    });

    it("answers Supports for hostile spellings without failing the call", async () => {
      for (const value of [
        "\u202Eaws",
        "ａｗｓ",
        "../../etc/passwd",
        "'; DROP TABLE prices; --",
        "%00",
      ]) {
        const answer = await costSource.supports({
          resource: resource({ provider: value, resourceType: value, sku: value, region: value }),
        });
        expect(answer.supported).toBe(false);
      }
    });
  });

  describe("options", () => {
    it("applies custom hours per month and default sizes", async () => {
      const custom = createTestClient(
        createListPricePlugin({ name: "prices", hoursPerMonth: 744, defaultVolumeSizeGb: 100 }),
        { logger: silentLogger() },
      ).costSource;
      const ec2 = await custom.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "ec2",
          sku: "t3.micro",
          region: "us-east-1",
        }),
      });
      const ebs = await custom.getProjectedCost({
        resource: resource({
          provider: "aws",
          resourceType: "ebs",
          sku: "gp3",
          region: "us-east-1",
        }),
      });
      expect((await custom.name({})).name).toBe("prices");
      expect([ec2.costPerMonth, ec2.billingDetail]).toEqual([
        7.7376,
        "on-demand Linux list price, shared tenancy, 744 h/month",
      ]);
      expect(ebs.costPerMonth).toBe(8);
    });

    it("rejects options out of range at construction", () => {
      expect(() => createListPricePlugin({ hoursPerMonth: 0 })).toThrow(
        "option hoursPerMonth must be a number from 1 to 744, got 0",
      );
      expect(() => createListPricePlugin({ defaultBucketSizeGb: Number.NaN })).toThrow(RangeError);
      expect(() => createListPricePlugin({ defaultLambdaMemoryMb: 64 })).toThrow(RangeError);
    });

    it("declares its coverage: providers, every resource type spelling and every region", () => {
      expect(plugin.coverage?.providers).toEqual(
        expect.arrayContaining(["aws", "azure", "azurerm", "gcp", "google"]),
      );
      expect(plugin.coverage?.resourceTypes).toEqual(
        expect.arrayContaining([
          "ec2",
          "aws_instance",
          "aws:s3/bucketV2:BucketV2",
          "google_compute_instance",
        ]),
      );
      expect(plugin.coverage?.regions).toEqual(
        expect.arrayContaining(["us-east-1", "ap-southeast-1", "eastus", "us-central1"]),
      );
    });
  });

  describe("health", () => {
    it("reports serving with the catalogue version and size", async () => {
      const answer = await observability.healthCheck({});
      expect(answer.status).toBe(HealthCheckResponse_Status.SERVING);
      expect(answer.message).toBe(
        `catalogue ${plugin.catalogue.version} (as of 2025-01-01): ${plugin.catalogue.entries.length} prices`,
      );
    });
  });
});
