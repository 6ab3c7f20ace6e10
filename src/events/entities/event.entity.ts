import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { BoxOffice } from '../../auth/entities/box-office.entity';
import type { EventStatus } from '../../common/statuses';
import { bigintAsNumber } from '../../database/column-transformers';
import type { EventPaymentMethod } from './event-payment-method.entity';
import type { TicketGroup } from './ticket-group.entity';
import type { TicketType } from './ticket-type.entity';

/**
 * An event a box office sells tickets for, with its ticket types, groups and the payment methods
 * it accepts. Orders and issued tickets name it; an order's `event_summary` is made from it.
 */
@Entity({ name: 'events' })
@Index('IDX_events_list', ['boxOfficeId', 'startAt', 'id'])
@Index('IDX_events_status', ['boxOfficeId', 'status', 'startAt', 'id'])
@Index('IDX_events_series', ['boxOfficeId', 'eventSeriesId', 'startAt', 'id'])
export class Event {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('IDX_events_box_office')
  @Column({ name: 'box_office_id', type: 'integer' })
  boxOfficeId: number;

  @ManyToOne(() => BoxOffice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'box_office_id' })
  boxOffice?: BoxOffice;

  @Column({ type: 'varchar', length: 300 })
  name: string;

  /** Unix seconds. */
  @Column({ name: 'start_at', type: 'bigint', transformer: bigintAsNumber })
  startAt: number;

  /** Unix seconds. */
  @Column({ name: 'end_at', type: 'bigint', transformer: bigintAsNumber })
  endAt: number;

  /** IANA zone name, e.g. `Europe/London`. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  @Column({ type: 'varchar', length: 16, default: 'published' })
  status: EventStatus;

  @Column({ name: 'online_event', type: 'boolean', default: false })
  onlineEvent: boolean;

  @Column({ type: 'boolean', default: false })
  private: boolean;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** The code a buyer enters to see a protected event; null when it is open. */
  @Column({ name: 'access_code', type: String, length: 64, nullable: true })
  accessCode: string | null;

  @Column({
    name: 'call_to_action',
    type: 'varchar',
    length: 100,
    default: 'Buy tickets',
  })
  callToAction: string;

  /** The public event page (absolute https URL). */
  @Column({ type: 'varchar', length: 500, default: '' })
  url: string;

  @Column({
    name: 'image_header_url',
    type: 'varchar',
    length: 500,
    default: '',
  })
  imageHeaderUrl: string;

  @Column({
    name: 'image_thumbnail_url',
    type: 'varchar',
    length: 500,
    default: '',
  })
  imageThumbnailUrl: string;

  @Column({ name: 'venue_name', type: String, length: 300, nullable: true })
  venueName: string | null;

  @Column({
    name: 'venue_postal_code',
    type: String,
    length: 32,
    nullable: true,
  })
  venuePostalCode: string | null;

  /** The series it is a date of (`es_<n>`, an EventSeries of the same box office). */
  @Column({ name: 'event_series_id', type: 'integer', default: 0 })
  eventSeriesId: number;

  /** Lower-case currency code: the one its orders are paid in. */
  @Column({ type: 'varchar', length: 3, default: 'gbp' })
  currency: string;

  @Column({
    name: 'created_at',
    type: 'bigint',
    default: 0,
    transformer: bigintAsNumber,
  })
  createdAt: number;

  /**
   * The number of its `completed` orders and of its `valid` issued tickets, kept exact by
   * database triggers on orders and issued_tickets (see the EventsAndTicketTypes migration), so
   * that a page of events reads two columns instead of counting its orders.
   */
  @Column({ name: 'completed_orders_count', type: 'integer', default: 0 })
  completedOrdersCount: number;

  @Column({ name: 'valid_tickets_count', type: 'integer', default: 0 })
  validTicketsCount: number;

  /** Σ (total − refund_amount) over its completed orders, kept by triggers (EventSeries). */
  @Column({
    name: 'completed_revenue',
    type: 'bigint',
    default: 0,
    transformer: bigintAsNumber,
  })
  completedRevenue: number;

  @OneToMany('TicketType', 'event', { cascade: true })
  ticketTypes?: TicketType[];

  @OneToMany('TicketGroup', 'event', { cascade: true })
  ticketGroups?: TicketGroup[];

  @OneToMany('EventPaymentMethod', 'event', { cascade: true })
  paymentMethods?: EventPaymentMethod[];
}
