import Type from "typebox";

/** Cloud providers the catalogue knows, in their canonical spelling. */
export const ProviderIdSchema = Type.Union([
  Type.Literal("aws"),
  Type.Literal("azure"),
  Type.Literal("gcp"),
]);

/** How a sheet's primary price is billed; the names follow the protocol's billing modes. */
export const BillingModeSchema = Type.Union([
  Type.Literal("per_hour"),
  Type.Literal("per_gb_month"),
  Type.Literal("per_gb_second"),
]);

/** Prices by region, then by SKU: `{ "us-east-1": { "t3.micro": 0.0104 } }`. */
export const PriceTableSchema = Type.Record(
  Type.String({ pattern: "^[a-z0-9][a-z0-9-]*$" }),
  Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.Number({ exclusiveMinimum: 0 })),
);

/**
 * One price sheet (one JSON file under `src/catalogue/`): the list prices of one provider's
 * resource type, all from one public source page at one as-of date.
 */
export const PriceSheetSchema = Type.Object(
  {
    /** Canonical provider, e.g. `aws`. */
    provider: ProviderIdSchema,
    /** Canonical resource type, e.g. `ec2`; aliases map onto it. */
    resource_type: Type.String({ pattern: "^[a-z0-9]+$" }),
    /** Human name of the resource, e.g. "Amazon EC2 instance". */
    title: Type.String({ minLength: 1 }),
    /** What the SKU names for this resource, e.g. "instance type". */
    sku_kind: Type.String({ minLength: 1 }),
    /** SKU used when a request names none; absent means the SKU is required. */
    default_sku: Type.Optional(Type.String({ minLength: 1 })),
    /** What the price covers and leaves out, e.g. "on-demand Linux list price, shared tenancy". */
    terms: Type.String({ minLength: 1 }),
    /** Billing mode of the prices in `prices`. */
    billing_mode: BillingModeSchema,
    /** Billing unit of the prices in `prices`, e.g. `hour`, `GB-month`. */
    unit: Type.String({ minLength: 1 }),
    /** ISO 4217 currency code of every price in the sheet. */
    currency: Type.String({ pattern: "^[A-Z]{3}$" }),
    /** The provider's public pricing page the figures come from. */
    source: Type.String({ pattern: "^https://" }),
    /** Date (YYYY-MM-DD) at which the figures are the published list prices. */
    as_of: Type.String({ pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" }),
    /** The prices, per `unit`. */
    prices: PriceTableSchema,
    /** Request prices per million requests (request-billed resources such as Lambda). */
    per_million_requests: Type.Optional(PriceTableSchema),
  },
  { additionalProperties: false },
);

/** The catalogue manifest (`src/catalogue/manifest.json`). */
export const CatalogueManifestSchema = Type.Object(
  {
    /** Catalogue version, bumped on every price update, e.g. `2025.01.0`. */
    version: Type.String({ pattern: "^[0-9]{4}\\.[0-9]{2}\\.[0-9]+$" }),
    /** Date of the newest figures in the catalogue. */
    as_of: Type.String({ pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" }),
    /** Currency every sheet uses. */
    currency: Type.String({ pattern: "^[A-Z]{3}$" }),
  },
  { additionalProperties: false },
);

/** A provider the catalogue knows. */
export type ProviderId = Type.Static<typeof ProviderIdSchema>;
/** A billing mode used by the catalogue. */
export type BillingMode = Type.Static<typeof BillingModeSchema>;
/** A validated price sheet, as written in JSON. */
export type PriceSheet = Type.Static<typeof PriceSheetSchema>;
/** A validated catalogue manifest, as written in JSON. */
export type CatalogueManifest = Type.Static<typeof CatalogueManifestSchema>;
