import type { ProviderId } from "./catalogue-schema.js";

/**
 * Where an alias comes from; reported in `plugin_metadata.alias_form`. `provider-native` is the
 * provider's own type name (Azure Resource Manager, Google Cloud Asset Inventory).
 */
export type AliasForm = "short" | "terraform" | "pulumi" | "cloudformation" | "provider-native";

/** One accepted spelling of a resource type. */
export interface ResourceTypeAlias {
  /** The spelling as the tool writes it, e.g. `aws:ec2/instance:Instance`. */
  readonly alias: string;
  /** The tool the spelling comes from. */
  readonly form: AliasForm;
  /**
   * Operating system the spelling implies (`azurerm_windows_virtual_machine`); undefined when the
   * spelling says nothing about it.
   */
  readonly operatingSystem?: "linux" | "windows";
}

/** A canonical resource type of one provider with all its accepted spellings. */
export interface ResourceTypeDefinition {
  /** Canonical provider. */
  readonly provider: ProviderId;
  /** Canonical resource type, as the catalogue sheet names it. */
  readonly resourceType: string;
  /** Whether the resource is an operating-system-bearing machine (the catalogue is Linux-only). */
  readonly hasOperatingSystem: boolean;
  /** Every accepted spelling; matched case-insensitively. */
  readonly aliases: readonly ResourceTypeAlias[];
}

const short = (...names: string[]): ResourceTypeAlias[] =>
  names.map((alias) => ({ alias, form: "short" }));

/**
 * Every resource type the catalogue prices and how infrastructure-as-code tools spell it: short
 * names, Terraform resource types, Pulumi type tokens, CloudFormation types and Azure resource
 * types. Short names such as `vm` and `compute` are shared between providers: the request's
 * provider decides.
 */
export const resourceTypeDefinitions: readonly ResourceTypeDefinition[] = [
  {
    provider: "aws",
    resourceType: "ec2",
    hasOperatingSystem: true,
    aliases: [
      ...short("ec2", "instance", "vm", "compute", "virtual_machine"),
      { alias: "aws_instance", form: "terraform" },
      { alias: "aws:ec2/instance:Instance", form: "pulumi" },
      { alias: "AWS::EC2::Instance", form: "cloudformation" },
    ],
  },
  {
    provider: "aws",
    resourceType: "ebs",
    hasOperatingSystem: false,
    aliases: [
      ...short("ebs", "volume", "ebs_volume", "disk", "block_storage"),
      { alias: "aws_ebs_volume", form: "terraform" },
      { alias: "aws:ebs/volume:Volume", form: "pulumi" },
      { alias: "AWS::EC2::Volume", form: "cloudformation" },
    ],
  },
  {
    provider: "aws",
    resourceType: "s3",
    hasOperatingSystem: false,
    aliases: [
      ...short("s3", "bucket", "s3_bucket", "object_storage"),
      { alias: "aws_s3_bucket", form: "terraform" },
      { alias: "aws:s3/bucket:Bucket", form: "pulumi" },
      { alias: "aws:s3/bucketV2:BucketV2", form: "pulumi" },
      { alias: "AWS::S3::Bucket", form: "cloudformation" },
    ],
  },
  {
    provider: "aws",
    resourceType: "rds",
    hasOperatingSystem: false,
    aliases: [
      ...short("rds", "db", "database", "db_instance", "rds_instance"),
      { alias: "aws_db_instance", form: "terraform" },
      { alias: "aws:rds/instance:Instance", form: "pulumi" },
      { alias: "AWS::RDS::DBInstance", form: "cloudformation" },
    ],
  },
  {
    provider: "aws",
    resourceType: "lambda",
    hasOperatingSystem: false,
    aliases: [
      ...short("lambda", "function", "lambda_function"),
      { alias: "aws_lambda_function", form: "terraform" },
      { alias: "aws:lambda/function:Function", form: "pulumi" },
      { alias: "AWS::Lambda::Function", form: "cloudformation" },
    ],
  },
  {
    provider: "azure",
    resourceType: "vm",
    hasOperatingSystem: true,
    aliases: [
      ...short("vm", "compute", "instance", "virtual_machine"),
      { alias: "azurerm_linux_virtual_machine", form: "terraform", operatingSystem: "linux" },
      { alias: "azurerm_windows_virtual_machine", form: "terraform", operatingSystem: "windows" },
      { alias: "azurerm_virtual_machine", form: "terraform" },
      { alias: "azure-native:compute:VirtualMachine", form: "pulumi" },
      {
        alias: "azure:compute/linuxVirtualMachine:LinuxVirtualMachine",
        form: "pulumi",
        operatingSystem: "linux",
      },
      {
        alias: "azure:compute/windowsVirtualMachine:WindowsVirtualMachine",
        form: "pulumi",
        operatingSystem: "windows",
      },
      { alias: "azure:compute/virtualMachine:VirtualMachine", form: "pulumi" },
      { alias: "Microsoft.Compute/virtualMachines", form: "provider-native" },
    ],
  },
  {
    provider: "gcp",
    resourceType: "compute",
    hasOperatingSystem: true,
    aliases: [
      ...short("compute", "vm", "instance", "gce", "compute_engine", "virtual_machine"),
      { alias: "google_compute_instance", form: "terraform" },
      { alias: "gcp:compute/instance:Instance", form: "pulumi" },
      { alias: "compute.googleapis.com/Instance", form: "provider-native" },
    ],
  },
];

/** A resource type resolved from a caller's spelling. */
export interface ResourceTypeMatch {
  /** The canonical resource type's definition. */
  readonly definition: ResourceTypeDefinition;
  /** The spelling that matched. */
  readonly alias: ResourceTypeAlias;
}

const byAlias = new Map<string, ResourceTypeMatch[]>();
for (const definition of resourceTypeDefinitions) {
  for (const alias of definition.aliases) {
    const key = alias.alias.toLowerCase();
    byAlias.set(key, [...(byAlias.get(key) ?? []), { definition, alias }]);
  }
}

/**
 * Every reading of a resource type spelling (trimmed, case-insensitive), across providers:
 * `vm` has three, `aws_instance` one, an unknown spelling none.
 */
export function resourceTypeMatches(input: string): readonly ResourceTypeMatch[] {
  return byAlias.get(input.trim().toLowerCase()) ?? [];
}

/** The canonical resource types of a provider, in catalogue order. */
export function resourceTypesOf(provider: ProviderId): readonly ResourceTypeDefinition[] {
  return resourceTypeDefinitions.filter((definition) => definition.provider === provider);
}
