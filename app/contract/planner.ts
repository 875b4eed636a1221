/**
 * The purchase planner's contract: the catalogue of figures (each with its source), the scenario a
 * user describes, and the evaluation Plumb returns. Units: bytes, seconds, bytes/s, US dollars.
 */
import { z } from 'zod';
import { parseSize } from '../common/units.js';

/** A byte count: a number of bytes, or text with a unit as drive makers write it ("100GB", "2TB"). */
export const Size = z.union([
  z.number().nonnegative('must be 0 or more bytes'),
  z
    .string()
    // A unit is required here: a bare "100" in a scenario file is more likely a slip than bytes.
    .refine(
      (text) => /[a-z]\s*$/i.test(text) && parseSize(text) !== null,
      'write a size with a unit, like "100GB" or "2TB"',
    )
    .transform((text) => parseSize(text)!),
]);

/** Where a figure comes from: an article in the domain brief, a review, a datasheet, a listing. */
export const Source = z.object({
  id: z.string(),
  title: z.string(),
  /** Who published it and where, as a reader would look it up. */
  where: z.string(),
});
export type Source = z.infer<typeof Source>;

/** A number from the catalogue with the source that gives it. */
export const Figure = z.object({
  value: z.number(),
  source: z.string(),
  note: z.string().optional(),
});
export type Figure = z.infer<typeof Figure>;

export const InterfaceId = z.enum([
  'sata',
  'usb32g1',
  'usb32g2',
  'usb32g2x2',
  'tb3',
  'usb4',
  'tb5',
  'apple-internal',
  'nvme-internal',
  /** A measured profile whose bus Plumb could not name: its measured rates stand as they are. */
  'measured',
]);
export type InterfaceId = z.infer<typeof InterfaceId>;

export const InterfaceClass = z.object({
  id: InterfaceId,
  name: z.string(),
  theoreticalGbps: z.number().nullable(),
  /** Practical maximum for one SSD. */
  ceilingBytesPerSecond: Figure,
  note: z.string().optional(),
});
export type InterfaceClass = z.infer<typeof InterfaceClass>;

/**
 * How the fast write cache behaves: dynamic SLC caches shrink as the drive fills (at most free ÷ 3
 * for TLC, free ÷ 4 for QLC); a fixed or thermal limit does not; `none` means no cliff was seen.
 */
export const CacheKind = z.enum(['dynamic-tlc', 'dynamic-qlc', 'fixed', 'thermal', 'none']);
export type CacheKind = z.infer<typeof CacheKind>;

/** Field names of a device whose figures need a source. */
export const deviceFigureFields = [
  'capacityBytes',
  'priceUsd',
  'readBytesPerSecond',
  'writeBytesPerSecond',
  'afterCacheWriteBytesPerSecond',
  'cacheBytes',
  'cacheRecoverySeconds',
  'tbwBytes',
] as const;
export type DeviceFigureField = (typeof deviceFigureFields)[number];

/** One storage device as the planner models it: catalogue entry, user's own, or measured. */
export const DeviceProfile = z
  .object({
    id: z.string().min(1, 'give the device an id').max(120),
    name: z.string().min(1, 'give the device a name').max(120),
    interface: InterfaceId,
    placement: z.enum(['internal', 'external']).default('external'),
    protocol: z.enum(['nvme', 'sata']).default('nvme'),
    capacityBytes: Size,
    priceUsd: z.number().nonnegative().nullable().default(null),
    /** The price range the sources give, when they give one: [low, high]. */
    priceRangeUsd: z.tuple([z.number().nonnegative(), z.number().nonnegative()]).optional(),
    readBytesPerSecond: z.number().positive().nullable().default(null),
    /** Write rate while the fast cache lasts (or the sustained rate when there is no cliff). */
    writeBytesPerSecond: z.number().positive('write rate must be above 0 bytes/s'),
    /** Write rate once the cache is full; null when no figure is known. */
    afterCacheWriteBytesPerSecond: z.number().positive().nullable().default(null),
    cacheKind: CacheKind.default('none'),
    /** Cache size on an empty drive (or bytes written before a thermal throttle). */
    cacheBytes: Size.nullable().default(null),
    /** True when the cache figure is a lower bound ("more than 212 GB"). */
    cacheAtLeast: z.boolean().default(false),
    /** Seconds for a full cache to empty, idle; null when not known. */
    cacheRecoverySeconds: z.number().nonnegative().nullable().default(null),
    /** Rated endurance, terabytes written, in bytes; null when the maker does not say. */
    tbwBytes: Size.nullable().default(null),
    /** For each figure, the id of its source ("user" for figures a user typed). */
    sources: z.record(z.string(), z.string()).default({}),
    origin: z.enum(['catalogue', 'custom', 'measured']).default('custom'),
    note: z.string().max(400).optional(),
  })
  .superRefine((device, context) => {
    const cacheless = device.cacheKind === 'none';
    if (!cacheless && device.cacheBytes === null) {
      context.addIssue({
        code: 'custom',
        path: ['cacheBytes'],
        message: `a ${device.cacheKind} cache needs its size; give cacheBytes or set cacheKind "none"`,
      });
    }
  });
export type DeviceProfileInput = z.input<typeof DeviceProfile>;
/** How many of their own devices a user can keep (a scenario takes at most this many). */
export const maxOwnDevices = 20;
export type DeviceProfile = z.output<typeof DeviceProfile>;

export const PriceStep = z.object({
  capacityBytes: z.number().positive(),
  /** Extra cost over the tier's base capacity. */
  upgradeUsd: Figure,
});

export const InternalPriceTier = z.object({
  id: z.string(),
  name: z.string(),
  hostKinds: z.array(z.enum(['apple-silicon', 'intel-mac', 'windows-pc'])),
  /** The first step is the base configuration (upgrade 0). */
  steps: z.array(PriceStep).min(1),
});
export type InternalPriceTier = z.infer<typeof InternalPriceTier>;

export const PlannerRules = z.object({
  bootMinFreeFraction: Figure,
  bootMinFreeBytes: Figure,
  bootComfortableFreeBytes: Figure,
  healthyMinFreeFraction: Figure,
  dynamicCacheDivisorTlc: Figure,
  dynamicCacheDivisorQlc: Figure,
  /** Endurance per terabyte of capacity, used when a maker publishes no TBW (Apple does not). */
  tbwPerCapacityProxy: Figure,
  /** TB5/USB4 SSDs on an Intel Mac, USB4 on TB3-only ports, 2x2 on Macs: about 1 GB/s. */
  fallbackBytesPerSecond: Figure,
  /** Writes to a TB3 SSD through a TB4 hub or TB5 dock. */
  dockTb3WriteBytesPerSecond: Figure,
  /** Without Trim (SATA over USB on a Mac) writes can fall to this fraction of new. */
  noTrimWriteFraction: Figure,
});
export type PlannerRules = z.infer<typeof PlannerRules>;

export const Catalogue = z.object({
  schema: z.literal('plumb.catalogue/1'),
  asOf: z.string(),
  currency: z.literal('USD'),
  sources: z.array(Source).min(1),
  interfaces: z.array(InterfaceClass).min(1),
  devices: z.array(DeviceProfile).min(1),
  internalPriceTiers: z.array(InternalPriceTier).min(1),
  /** Internal device profile per host kind, for capacities of at least `minCapacityBytes`. */
  internalDevices: z.array(
    z.object({
      hostKind: z.enum(['apple-silicon', 'intel-mac', 'windows-pc']),
      minCapacityBytes: z.number().nonnegative(),
      device: z.string(),
    }),
  ),
  rules: PlannerRules,
});
export type Catalogue = z.output<typeof Catalogue>;

export const HostKind = z.enum(['apple-silicon', 'intel-mac', 'windows-pc']);
export type HostKind = z.infer<typeof HostKind>;
/** The fastest port the external disk will use. */
export const PortKind = z.enum(['tb5', 'tb4-usb4', 'tb3', 'usb32g2x2', 'usb32g2']);
export type PortKind = z.infer<typeof PortKind>;

export const Burst = z.object({
  name: z.string().min(1).max(120),
  size: Size.refine((bytes) => bytes > 0, 'a burst writes more than 0 bytes'),
  /** Which data the burst writes: the movable data (libraries, projects) or what stays internal. */
  target: z.enum(['movable', 'internal']).default('movable'),
  /** How many times in a row. */
  repeat: z.number().int().min(1).max(100).default(1),
  /** Idle seconds between repeats, for the cache to recover. */
  gapSeconds: z.number().nonnegative().default(0),
});
export type Burst = z.output<typeof Burst>;

export const PlanOption = z.object({
  name: z.string().min(1).max(80).optional(),
  internalCapacity: Size.refine((bytes) => bytes > 0, 'the internal disk needs a capacity'),
  /**
   * Overrides the catalogue's internal profile (a catalogue id, "result:ID", or the id of an SSD
   * of the user's own that they would fit: its price is then the option's internal cost).
   */
  internalDevice: z.string().optional(),
  /**
   * What the internal disk costs over the computer as it is: the upgrade, or the SSD the user
   * would fit (0 only to keep the disk it has). Overrides the catalogue's upgrade price.
   */
  internalUpgradeUsd: z.number().nonnegative().optional(),
  external: z
    .object({
      device: z.string().min(1, 'name an external device id from the catalogue'),
      priceUsd: z.number().nonnegative().optional(),
    })
    .optional(),
});
export type PlanOption = z.output<typeof PlanOption>;

export const Scenario = z
  .object({
    name: z.string().max(120).default('My plan'),
    host: z.object({
      kind: HostKind,
      port: PortKind,
      /** External disks reach the computer through a TB4 hub or TB5 dock. */
      throughDock: z.boolean().default(false),
      /** Internal upgrade prices: a tier id from the catalogue; defaults by host kind. */
      priceTier: z.string().optional(),
    }),
    data: z.object({
      /** System, apps, home folder: what must stay on the internal disk. */
      keepInternal: Size,
      /** Media libraries and projects that could live on an external disk. */
      movable: Size,
      internalGrowthPerYear: Size.default(0),
      movableGrowthPerYear: Size.default(0),
    }),
    workload: z.object({
      bursts: z.array(Burst).max(12).default([]),
      dailyWritesInternal: Size.default(0),
      dailyWritesMovable: Size.default(0),
    }),
    horizonYears: z.number().int().min(1).max(10).default(4),
    prefer: z.enum(['cost', 'speed']).default('cost'),
    /** Options slower than this for any one burst are set aside. */
    maxBurstSeconds: z.number().positive().optional(),
    /** The user's own devices, usable by id in options. */
    devices: z.array(DeviceProfile).max(maxOwnDevices).default([]),
    options: z.array(PlanOption).min(1, 'give at least one option to compare').max(6),
  })
  .strict()
  .superRefine((scenario, context) => {
    if (scenario.host.kind === 'intel-mac' && ['tb5', 'tb4-usb4'].includes(scenario.host.port)) {
      context.addIssue({
        code: 'custom',
        path: ['host', 'port'],
        message: 'Intel Macs have Thunderbolt 3 at most; use "tb3", "usb32g2x2" or "usb32g2"',
      });
    }
  });
export type ScenarioInput = z.input<typeof Scenario>;
export type Scenario = z.output<typeof Scenario>;

export const Warning = z.object({
  code: z.string(),
  message: z.string(),
  source: z.string().nullable(),
});
export type Warning = z.infer<typeof Warning>;

export const Link = z.object({
  /** The interface the device actually runs at on this host. */
  mode: InterfaceId,
  modeName: z.string(),
  ceilingBytesPerSecond: z.number().nullable(),
  writeCeilingBytesPerSecond: z.number().nullable(),
  usable: z.boolean(),
});
export type Link = z.infer<typeof Link>;

export const BurstResult = z.object({
  name: z.string(),
  bytes: z.number(),
  disk: z.enum(['internal', 'external']),
  /** Whether every repeat fits in the disk's free space today; when not, no time is claimed. */
  fits: z.boolean(),
  /** Seconds for each repeat, at the start of the horizon. */
  seconds: z.array(z.number()),
  totalSeconds: z.number(),
  /** The same burst once the disk has filled as planned by the end of the horizon. */
  totalSecondsAtHorizon: z.number(),
  cacheBytesAvailable: z.number().nullable(),
  cacheBytesAtHorizon: z.number().nullable(),
  inCacheBytes: z.number(),
  afterCacheBytes: z.number(),
});
export type BurstResult = z.infer<typeof BurstResult>;

export const SpaceYear = z.object({
  year: z.number(),
  usedBytes: z.number(),
  freeBytes: z.number(),
  status: z.enum(['comfortable', 'ok', 'below-minimum', 'full']),
});

export const DiskResult = z.object({
  role: z.enum(['internal', 'external']),
  device: z.object({ id: z.string(), name: z.string(), origin: z.string() }),
  capacityBytes: z.number(),
  link: Link,
  readBytesPerSecond: z.number().nullable(),
  writeBytesPerSecond: z.number(),
  afterCacheWriteBytesPerSecond: z.number(),
  /** The write cache at today's fill level; null when the device has no cliff. */
  cacheBytes: z.number().nullable(),
  /** Ids of the sources of this device's figures (in the evaluation's sources). */
  sources: z.array(z.string()),
  space: z.array(SpaceYear),
  /** First year the disk breaks its free-space rule, or null. */
  firstShortYear: z.number().nullable(),
  dailyWriteBytes: z.number(),
  tbwBytes: z.number(),
  tbwAssumed: z.boolean(),
  /** Years until rated endurance at this write rate; null when nothing is written daily. */
  wearLifeYears: z.number().nullable(),
});
export type DiskResult = z.infer<typeof DiskResult>;

/** A price the planner does not know: the scenario field to fill and what to put there. */
export const MissingPrice = z.object({
  /** Dotted path in the scenario file, as `plumb plan` reads it: "options.0.internalUpgradeUsd". */
  path: z.string(),
  /** Which price: the internal disk's or the external SSD's. */
  disk: z.enum(['internal', 'external']),
  message: z.string(),
});
export type MissingPrice = z.infer<typeof MissingPrice>;

export const OptionResult = z.object({
  index: z.number(),
  name: z.string(),
  usable: z.boolean(),
  /** Null while a price is missing: an unknown price is never counted as $0. */
  costUsd: z.number().nullable(),
  costRangeUsd: z.tuple([z.number(), z.number()]).nullable(),
  /** The prices to give before this option can be compared on cost (it is never recommended). */
  missingPrices: z.array(MissingPrice),
  addedCapacityBytes: z.number(),
  costPerAddedTbUsd: z.number().nullable(),
  disks: z.array(DiskResult),
  bursts: z.array(BurstResult),
  totalBurstSeconds: z.number(),
  /** Meets the free-space rules, wear and speed limits over the whole horizon. */
  meetsRules: z.boolean(),
  warnings: z.array(Warning),
});
export type OptionResult = z.infer<typeof OptionResult>;

export const ChartSeries = z.object({
  option: z.number(),
  name: z.string(),
  /**
   * Exact corners of the piecewise-linear time curve: [bytes, seconds]. It ends before the chart's
   * `maxBytes` where the option's disk is full today: larger bursts do not fit.
   */
  points: z.array(z.tuple([z.number(), z.number()])),
});

export const Crossover = z.object({
  bytes: z.number(),
  seconds: z.number(),
  fasterBelow: z.number(),
  fasterAbove: z.number(),
});
export type Crossover = z.infer<typeof Crossover>;

export const Evaluation = z.object({
  scenario: z.object({ name: z.string(), horizonYears: z.number(), prefer: z.string() }),
  options: z.array(OptionResult),
  chart: z.object({
    maxBytes: z.number(),
    series: z.array(ChartSeries),
    crossovers: z.array(Crossover),
  }),
  recommendation: z.object({
    option: z.number().nullable(),
    headline: z.string(),
    reasons: z.array(z.string()),
    assumptions: z.array(z.string()),
  }),
  sources: z.array(Source),
});
export type Evaluation = z.infer<typeof Evaluation>;

/** A saved scenario's id: the name of its file in Plumb's data folder, without ".json". */
export const ScenarioId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'a scenario id is lower-case letters, digits and dashes');

/** A scenario saved in Plumb's data folder, as the list shows it. */
export const SavedScenario = z.object({
  id: ScenarioId,
  name: z.string(),
  /** ISO-8601, when it was last saved. */
  savedAt: z.string(),
});
export type SavedScenario = z.infer<typeof SavedScenario>;

/** A scenario that ships with Plumb (examples/scenarios/). */
export const ExampleScenario = z.object({ id: z.string(), name: z.string() });
export type ExampleScenario = z.infer<typeof ExampleScenario>;

const ScenarioList = z.object({
  saved: z.array(SavedScenario),
  examples: z.array(ExampleScenario),
});

/** The text of an imported scenario file: about 1 MB at most (a full one is a few kilobytes). */
const scenarioTextLimit = 1_000_000;

export const plannerOperations = {
  /** The built-in catalogue, with every figure's source. */
  'planner.catalogue': { input: z.object({}).strict(), output: Catalogue },
  /** A starting scenario for this machine, and the measured profiles from saved results. */
  'planner.defaults': {
    input: z.object({}).strict(),
    output: z.object({
      scenario: Scenario,
      measuredDevices: z.array(DeviceProfile),
      notes: z.array(z.string()),
    }),
  },
  /** Cost, burst times, free space, wear, warnings and a recommendation for each option. */
  'planner.evaluate': { input: Scenario, output: Evaluation },
  /** The user's own devices, kept in the data folder across restarts. */
  'planner.devices.list': {
    input: z.object({}).strict(),
    output: z.object({ devices: z.array(DeviceProfile) }),
  },
  /** Adds a device, or replaces the one with the same id; returns them all. */
  'planner.devices.save': {
    input: z.object({ device: DeviceProfile }).strict(),
    output: z.object({ device: DeviceProfile, devices: z.array(DeviceProfile) }),
  },
  /** Removes one of the user's devices; returns the rest. */
  'planner.devices.delete': {
    input: z.object({ id: z.string().min(1).max(120) }).strict(),
    output: z.object({ devices: z.array(DeviceProfile) }),
  },
  /** The scenarios saved in the data folder (newest first) and the examples Plumb ships. */
  'planner.scenarios.list': { input: z.object({}).strict(), output: ScenarioList },
  /** One saved scenario, or one of the examples. */
  'planner.scenarios.open': {
    input: z.object({ from: z.enum(['saved', 'example']), id: z.string().min(1).max(80) }).strict(),
    output: z.object({ scenario: Scenario }),
  },
  /** Saves a scenario: as a new one without an id, else in place of the one with that id. */
  'planner.scenarios.save': {
    input: z.object({ id: ScenarioId.optional(), scenario: Scenario }).strict(),
    output: ScenarioList.extend({ entry: SavedScenario }),
  },
  /** A copy of a saved scenario, saved under a new id and named "… (copy)". */
  'planner.scenarios.duplicate': {
    input: z.object({ id: ScenarioId }).strict(),
    output: ScenarioList.extend({ entry: SavedScenario }),
  },
  'planner.scenarios.delete': {
    input: z.object({ id: ScenarioId }).strict(),
    output: ScenarioList,
  },
  /**
   * A scenario file the user picked (its text, read by the UI): checked by the parser
   * `plumb plan` uses, then saved as a new scenario.
   */
  'planner.scenarios.import': {
    input: z
      .object({ text: z.string().max(scenarioTextLimit), fileName: z.string().max(260) })
      .strict(),
    output: ScenarioList.extend({ entry: SavedScenario, scenario: Scenario }),
  },
  /** The scenario as the JSON file `plumb plan` reads, and a file name for it. */
  'planner.scenarios.export': {
    input: z.object({ scenario: Scenario }).strict(),
    output: z.object({ fileName: z.string(), text: z.string() }),
  },
} as const;
