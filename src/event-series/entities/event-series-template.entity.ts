import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type {
  TicketTypeKind,
  TicketTypeStatus,
} from '../../events/entities/ticket-type.entity';
import type { PaymentMethodType } from '../../orders/entities/order.entity';
import type { EventSeries } from './event-series.entity';

/**
 * A series' template: the ticket types, groups and payment methods a new date of it starts with,
 * shaped as an event's (src/events/entities). Their ids are their own, apart from the events'.
 */

@Entity({ name: 'event_series_ticket_groups' })
@Index('IDX_event_series_ticket_groups_series', ['seriesId', 'sortOrder', 'id'])
export class EventSeriesTicketGroup {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_series_id', type: 'integer' })
  seriesId: number;

  @ManyToOne('EventSeries', 'ticketGroups', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  series?: EventSeries;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'max_per_order', type: Number, nullable: true })
  maxPerOrder: number | null;

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;
}

@Entity({ name: 'event_series_ticket_types' })
@Index('IDX_event_series_ticket_types_series', ['seriesId', 'sortOrder', 'id'])
@Index('IDX_event_series_ticket_types_group', ['groupId', 'sortOrder', 'id'])
export class EventSeriesTicketType {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_series_id', type: 'integer' })
  seriesId: number;

  @ManyToOne('EventSeries', 'ticketTypes', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  series?: EventSeries;

  @Column({ name: 'group_id', type: Number, nullable: true })
  groupId: number | null;

  @ManyToOne('EventSeriesTicketGroup', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'group_id' })
  group?: EventSeriesTicketGroup | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'integer' })
  price: number;

  @Column({ name: 'booking_fee', type: 'integer', default: 0 })
  bookingFee: number;

  @Column({ name: 'min_per_order', type: 'integer', default: 1 })
  minPerOrder: number;

  @Column({ name: 'max_per_order', type: 'integer' })
  maxPerOrder: number;

  /** The capacity each new date starts with. */
  @Column({ name: 'quantity_total', type: 'integer' })
  quantityTotal: number;

  @Column({ type: 'varchar', length: 16 })
  status: TicketTypeStatus;

  @Column({ type: 'varchar', length: 16 })
  type: TicketTypeKind;

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;

  @Column({ name: 'access_code', type: String, length: 64, nullable: true })
  accessCode: string | null;
}

@Entity({ name: 'event_series_payment_methods' })
@Index('IDX_event_series_payment_methods_series', ['seriesId', 'id'])
export class EventSeriesPaymentMethod {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_series_id', type: 'integer' })
  seriesId: number;

  @ManyToOne('EventSeries', 'paymentMethods', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  series?: EventSeries;

  @Column({ type: 'varchar', length: 16 })
  type: PaymentMethodType;

  @Column({ name: 'payment_method_id', type: Number, nullable: true })
  paymentMethodId: number | null;

  @Column({ name: 'external_id', type: String, length: 255, nullable: true })
  externalId: string | null;

  @Column({ type: String, length: 200, nullable: true })
  name: string | null;

  @Column({ type: String, length: 2000, nullable: true })
  instructions: string | null;
}
