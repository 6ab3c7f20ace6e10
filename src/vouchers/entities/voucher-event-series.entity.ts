import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { EventSeries } from '../../event-series/entities/event-series.entity';
import { Voucher } from './voucher.entity';

/** A series a voucher's codes are usable on; a voucher with none is usable on any event. */
@Entity({ name: 'voucher_event_series' })
@Index('IDX_voucher_event_series_voucher', ['voucherId', 'eventSeriesId'], {
  unique: true,
})
@Index('IDX_voucher_event_series_event_series', ['eventSeriesId', 'voucherId'])
export class VoucherEventSeries {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'voucher_id', type: 'integer' })
  voucherId: number;

  @ManyToOne(() => Voucher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'voucher_id' })
  voucher?: Voucher;

  @Column({ name: 'event_series_id', type: 'integer' })
  eventSeriesId: number;

  @ManyToOne(() => EventSeries, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  eventSeries?: EventSeries;
}
