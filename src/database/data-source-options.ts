import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type Database from 'better-sqlite3';
import type { DatabaseTarget } from '../config/app-config';
import { ApiKey } from '../auth/entities/api-key.entity';
import { BoxOffice } from '../auth/entities/box-office.entity';
import { EventPaymentMethod } from '../events/entities/event-payment-method.entity';
import { Event } from '../events/entities/event.entity';
import { TicketGroup } from '../events/entities/ticket-group.entity';
import { TicketType } from '../events/entities/ticket-type.entity';
import { IssuedTicket } from '../issued-tickets/entities/issued-ticket.entity';
import { LineItem } from '../orders/entities/line-item.entity';
import { Order } from '../orders/entities/order.entity';
import { SEARCH_FOLD_FUNCTION } from './search-fold';
import { InitialSchema1763800000000 } from './migrations/1763800000000-InitialSchema';
import { EventsAndTicketTypes1764000000000 } from './migrations/1764000000000-EventsAndTicketTypes';
import { CheckIn } from '../check-ins/entities/check-in.entity';
import { EventSeries } from '../event-series/entities/event-series.entity';
import {
  EventSeriesPaymentMethod,
  EventSeriesTicketGroup,
  EventSeriesTicketType,
} from '../event-series/entities/event-series-template.entity';
import { EventSeries1765000000000 } from './migrations/1765000000000-EventSeries';
import { CheckIns1765100000000 } from './migrations/1765100000000-CheckIns';
import { SyncAndChanges1765200000000 } from './migrations/1765200000000-SyncAndChanges';
import { BoxOfficeCurrencyAndZone1765300000000 } from './migrations/1765300000000-BoxOfficeCurrencyAndZone';
import { ImportGeneration1765400000000 } from './migrations/1765400000000-ImportGeneration';
import { NetCounterUpdates1765500000000 } from './migrations/1765500000000-NetCounterUpdates';
import { StockVersion1765600000000 } from './migrations/1765600000000-StockVersion';
import { ActivityHours1765700000000 } from './migrations/1765700000000-ActivityHours';
import { ActivityDays1765800000000 } from './migrations/1765800000000-ActivityDays';
import { TicketTypeIdsApart1765900000000 } from './migrations/1765900000000-TicketTypeIdsApart';
import { StampsPerBoxOffice1766000000000 } from './migrations/1766000000000-StampsPerBoxOffice';
import { SearchFold1766010000000 } from './migrations/1766010000000-SearchFold';
import { CheckInWrites1766200000000 } from './migrations/1766200000000-CheckInWrites';
import { PartMovesAnnounced1766300000000 } from './migrations/1766300000000-PartMovesAnnounced';
import { ScanEntriesAtCommit1766400000000 } from './migrations/1766400000000-ScanEntriesAtCommit';
import { IssuedTicketSearch1766500000000 } from './migrations/1766500000000-IssuedTicketSearch';
import { WebhookEndpoints1766700000000 } from './migrations/1766700000000-WebhookEndpoints';
import { WritesWithoutHotRows1766800000000 } from './migrations/1766800000000-WritesWithoutHotRows';
import { CountsWithoutHotRows1766900000000 } from './migrations/1766900000000-CountsWithoutHotRows';
import { OneLockOrder1766910000000 } from './migrations/1766910000000-OneLockOrder';
import { AttendanceCounts1766920000000 } from './migrations/1766920000000-AttendanceCounts';
import { TicketWithoutOrderStampsNone1766930000000 } from './migrations/1766930000000-TicketWithoutOrderStampsNone';
import { RecordChangePlannedOnce1766940000000 } from './migrations/1766940000000-RecordChangePlannedOnce';
import { TicketSearchByEvent1766850000000 } from './migrations/1766850000000-TicketSearchByEvent';
import { WriteScope1766600000000 } from './migrations/1766600000000-WriteScope';
import { TicketsWithoutOrder1766610000000 } from './migrations/1766610000000-TicketsWithoutOrder';
import { IdempotencyWithoutClaims1766620000000 } from './migrations/1766620000000-IdempotencyWithoutClaims';
import { ConnectorCatalogue1766100000000 } from './migrations/1766100000000-ConnectorCatalogue';
import { LineItemSubjects1766110000000 } from './migrations/1766110000000-LineItemSubjects';
import { ConnectorCounters1766120000000 } from './migrations/1766120000000-ConnectorCounters';
import { ConnectorColumnsInSync1766190000000 } from './migrations/1766190000000-ConnectorColumnsInSync';
import { Product } from '../products/entities/product.entity';
import { ProductEventSeries } from '../products/entities/product-event-series.entity';
import { Voucher } from '../vouchers/entities/voucher.entity';
import { VoucherEventSeries } from '../vouchers/entities/voucher-event-series.entity';
import { VoucherCode } from '../vouchers/entities/voucher-code.entity';
import { Discount } from '../discounts/entities/discount.entity';
import { DiscountTicketType } from '../discounts/entities/discount-ticket-type.entity';
import { DiscountProduct } from '../discounts/entities/discount-product.entity';
import { WaitlistSignup } from '../waitlist-signups/entities/waitlist-signup.entity';

export const ENTITIES = [
  BoxOffice,
  ApiKey,
  Event,
  TicketGroup,
  TicketType,
  EventPaymentMethod,
  Order,
  LineItem,
  IssuedTicket,
  CheckIn,
  EventSeries,
  EventSeriesTicketGroup,
  EventSeriesTicketType,
  EventSeriesPaymentMethod,
  Product,
  ProductEventSeries,
  Voucher,
  VoucherEventSeries,
  VoucherCode,
  Discount,
  DiscountTicketType,
  DiscountProduct,
  WaitlistSignup,
];
export const MIGRATIONS = [
  InitialSchema1763800000000,
  EventsAndTicketTypes1764000000000,
  EventSeries1765000000000,
  CheckIns1765100000000,
  SyncAndChanges1765200000000,
  BoxOfficeCurrencyAndZone1765300000000,
  ImportGeneration1765400000000,
  NetCounterUpdates1765500000000,
  StockVersion1765600000000,
  ActivityHours1765700000000,
  ActivityDays1765800000000,
  TicketTypeIdsApart1765900000000,
  StampsPerBoxOffice1766000000000,
  SearchFold1766010000000,
  ConnectorCatalogue1766100000000,
  LineItemSubjects1766110000000,
  ConnectorCounters1766120000000,
  ConnectorColumnsInSync1766190000000,
  CheckInWrites1766200000000,
  PartMovesAnnounced1766300000000,
  ScanEntriesAtCommit1766400000000,
  IssuedTicketSearch1766500000000,
  WriteScope1766600000000,
  TicketsWithoutOrder1766610000000,
  IdempotencyWithoutClaims1766620000000,
  WebhookEndpoints1766700000000,
  WritesWithoutHotRows1766800000000,
  TicketSearchByEvent1766850000000,
  CountsWithoutHotRows1766900000000,
  OneLockOrder1766910000000,
  AttendanceCounts1766920000000,
  TicketWithoutOrderStampsNone1766930000000,
  RecordChangePlannedOnce1766940000000,
];

export interface DataSourceTuning {
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/**
 * Startup options of every PostgreSQL session the project opens. Every statement the service
 * sends is a short indexed read: JIT compilation and parallel workers only add start-up cost
 * there, and a generic plan that overestimates a LIMIT's rows turns both on (the issued-ticket
 * page at 1M orders took 130-250 ms with them and 10 ms without:
 * bench/notes/2026-11-25-postgresql-session-settings.md).
 */
export const PG_SESSION_OPTIONS =
  '-c jit=off -c max_parallel_workers_per_gather=0';

const DEFAULT_TUNING: DataSourceTuning = {
  poolSize: 10,
  statementTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
};

/**
 * The one source of TypeORM options: the app, ormconfig.ts (TypeORM's CLI), the seeder, the key
 * CLI and the tests all build their DataSource here. Schema comes only from migrations.
 */
export function buildDataSourceOptions(
  target: DatabaseTarget,
  tuning: DataSourceTuning = DEFAULT_TUNING,
): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    logging: false,
  } as const;

  if (target.type === 'sqlite') {
    const inMemory = target.database === ':memory:';
    if (!inMemory) mkdirSync(dirname(target.database), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: target.database,
      // A reader never waits long on a writer (seeding, the API key CLI): WAL lets both run at
      // once.
      enableWAL: !inMemory,
      // The busy timeout. Reads never wait for it in WAL mode, even while another process holds
      // BEGIN EXCLUSIVE (docs/DESIGN.md, Database faults); it bounds writers: the seeder and the API
      // key command (migrations wait longer: migrate.ts).
      timeout: 2_000,
      statementCacheSize: 200,
      prepareDatabase: (db: Database.Database) => {
        db.pragma('foreign_keys = ON');
        db.pragma('synchronous = NORMAL');
        // PostgreSQL's is created by migration SearchFold, from the same table.
        db.function(
          SEARCH_FOLD_FUNCTION.name,
          { deterministic: true },
          SEARCH_FOLD_FUNCTION.fold,
        );
      },
    };
  }
  return {
    ...common,
    type: 'postgres',
    url: target.url,
    poolSize: tuning.poolSize,
    connectTimeoutMS: tuning.connectTimeoutMs,
    extra: {
      statement_timeout: tuning.statementTimeoutMs,
      idle_in_transaction_session_timeout: 60_000,
      options: PG_SESSION_OPTIONS,
    },
  };
}
