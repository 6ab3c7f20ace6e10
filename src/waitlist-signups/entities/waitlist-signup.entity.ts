import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { BoxOffice } from '../../auth/entities/box-office.entity';
import { bigintAsNumber } from '../../database/column-transformers';
import { EventSeries } from '../../event-series/entities/event-series.entity';
import { Event } from '../../events/entities/event.entity';

/**
 * Someone waiting for tickets to a series (docs/API.md, "WaitlistSignup"): for one of its dates,
 * or for any (`event_id` null; also when the date asked for is deleted).
 */
@Entity({ name: 'waitlist_signups' })
@Index('IDX_waitlist_signups_list', [
  'boxOfficeId',
  'eventSeriesId',
  'createdAt',
  'id',
])
export class WaitlistSignup {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ name: 'event_series_id', type: 'integer' })
  eventSeriesId: number;

  @ManyToOne(() => EventSeries, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  eventSeries?: EventSeries;

  @Index('IDX_waitlist_signups_event')
  @Column({ name: 'event_id', type: Number, nullable: true })
  eventId: number | null;

  @ManyToOne(() => Event, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** Unix seconds. */
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintAsNumber })
  createdAt: number;
}
