import type { Command } from 'commander';
import type { RedisClient } from './store/redis.js';
import type { Kysely } from 'kysely';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ModuleSettings, PlatformConfig } from './config.js';
import type { Contract } from './contract/types.js';
import type { ServiceDefinition } from './pipeline/service.js';
import type { ChangeBus } from './store/changes.js';
import type { NamedMigration } from './store/migrations.js';
import type { ChangeMark } from './store/database.js';
import type { ScopedHook } from './pipeline/hooks.js';

/** A site an account may grant an application (OAuth consent), with the account's role on it. */
export interface AccountSite {
  id: number;
  name: string;
  url: string;
  role: string;
}

/**
 * The sites, as the module that keeps them answers for the accounts' OAuth
 * grants (`StoreModule.sites`): the accounts read no other module's tables,
 * they ask this port.
 */
export interface SiteDirectory {
  /** The sites where the account has a role, in site order. */
  ofAccount(accountId: string): Promise<AccountSite[]>;
  /** Those of these sites that exist, their name and address, in site order. */
  byIds(ids: readonly number[]): Promise<Omit<AccountSite, 'role'>[]>;
}

/**
 * A part of the app that owns tables: their migrations (applied in the
 * order declared, after those of the modules listed before it) and the
 * demo data it seeds into an empty store. `Tables` names its tables for
 * the type of the app's store.
 */
export interface StoreModule<Tables = unknown, Config extends PlatformConfig = PlatformConfig> {
  name: string;
  migrations: readonly NamedMigration[];
  /** Loads demo data when its tables are empty (`SEED_DEMO_DATA`); `config` holds the module's own settings too. */
  seed?(db: Kysely<Tables>, config: Config): Promise<void>;
  /**
   * Makes what a person gets with their account (the publishing module: a
   * site of their own); safe to repeat. The app calls every module's when
   * an account logs in to the dashboard (`PlatformDeps.welcome`).
   */
  welcome?(db: Kysely<Tables>, account: { id: string; email: string }, config: Config): Promise<void>;
  /**
   * Ends what the module keeps for an account that is about to be deleted
   * and that its tables do not let go of by themselves (the publishing
   * module: its user's command-line tokens, revoked). The app calls every
   * module's, in module order, before the accounts delete the account
   * (`PlatformDeps.farewell`): each module writes only its own tables.
   */
  farewell?(db: Kysely<Tables>, accountId: string): Promise<void>;
  /**
   * The module's sites for the accounts' OAuth grants (the publishing module's),
   * built over its own tables. The app hands the one module's to every service
   * (`PlatformDeps.sites`).
   */
  sites?(db: Kysely<Tables>): SiteDirectory;
  /** Registers the module's admin commands; `store` opens and migrates the store on first use. */
  admin?(program: Command, store: () => Promise<Kysely<Tables>>): void;
  /** Only a type: the module's tables. */
  readonly tables?: Tables;
}

/** What the platform hands a service module when the app is built; `config` holds the module's own settings too. */
export interface PlatformDeps<Tables = unknown, Config extends PlatformConfig = PlatformConfig> {
  /** The service's contract, loaded and compiled from `contractFile`. */
  contract: Contract;
  db: Kysely<Tables>;
  /**
   * For reads that may be a moment stale (lookups, avatars, post reads): a
   * read replica when `DATABASE_READ_URL` names any (at most
   * `REPLICA_MAX_LAG_MS` behind), else `db`. Writes, and reads that must see
   * a write just made, use `db`.
   */
  readDb: Kysely<Tables>;
  /**
   * A mark of the data `db` holds that changes with every write (SQLite;
   * see `ChangeMark`): what an instance keeps of rendered data is good for as
   * long as the mark it was read under. None on PostgreSQL.
   */
  changeMark?: ChangeMark;
  config: Config;
  logger: Logger;
  /** The Redis every instance shares, when `REDIS_URL` or `REDIS_CLUSTER_NODES` is set. */
  redis?: RedisClient;
  /** The app's Prometheus registry, for the service's own series. */
  metrics: Registry;
  /** News of store changes for the caches in front of the store, on this instance and (with Redis) every other. */
  changes: ChangeBus;
  /** Counts a request refused with 429 by the service's limits. */
  onRateLimited(caller: string): void;
  /** Runs every module's `welcome` for an account, in module order. */
  welcome(account: { id: string; email: string }): Promise<void>;
  /** Runs every module's `farewell` for an account about to be deleted, in module order. */
  farewell(accountId: string): Promise<void>;
  /** The sites accounts may grant applications, from the module that keeps them (none without one). */
  sites: SiteDirectory;
}

/**
 * A built service: its definition for the contract pipeline, and the steps
 * it adds outside it, named by their place in a request's life
 * (docs/architecture.md, "One request's life"). Nothing of a service runs
 * before the platform's observation step: the access log and the request
 * metrics see every request.
 */
export interface BuiltService {
  /** The module's typed definition as `servedDefinition` hands it to the pipeline. */
  definition: ServiceDefinition;
  /**
   * Runs after observation, before health, metrics and the pipeline route
   * anything, for a request under one of its `prefixes` only (the app looks
   * the owner up once, `scopedHooks`): CORS preflights for the service's
   * prefixes, a mark for the presenter, a protocol of its own (the OAuth server).
   */
  onRequest?: ScopedHook;
  /** Runs for a request that nothing else took (no service's prefix, no docs page): a page that is no contract operation. */
  onNotFound?: Middleware;
}

/**
 * One service, as the app registers it: what the service is and how it is
 * built. The app collects these; the platform asks nothing more of a
 * service, and never imports one.
 */
export interface ServiceModule<Tables = unknown, Settings extends ModuleSettings = {}>
  extends StoreModule<Tables, PlatformConfig & Settings> {
  /** Its name: in `SERVICES`, in logs and metrics, and the docs page `/docs/<name>`. */
  name: string;
  /** The contract, relative to the project root (`openapi/<name>.yaml`). */
  contractFile: string;
  /**
   * Contracts of routes the module serves outside the pipeline (its `onRequest`
   * step: the developer module's OAuth authorization server,
   * `openapi/oauth.yaml`), by name: their docs pages are served with its own.
   */
  documents?: readonly string[];
  /**
   * Reads the module's own settings from the environment, under a key of its
   * own (`{ developer: {…} }`); the app's configuration composes them with the
   * platform's (`composeConfig`), and `create` finds them in `deps.config`.
   * `platform` holds the platform's settings, for defaults derived from them.
   */
  settings?(env: NodeJS.ProcessEnv, platform: PlatformConfig): Settings;
  create(deps: PlatformDeps<Tables, PlatformConfig & Settings>): BuiltService;
}

/** The store tables of every module in a list, as one type (the app's store). */
export type TablesOf<M extends readonly { tables?: unknown }[]> = UnionToIntersection<
  { [K in keyof M]: NonNullable<M[K]['tables']> }[number]
>;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;
