import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { PaymentMethodColumns } from '../../events/entities/event-payment-method.entity';
import { TicketGroupColumns } from '../../events/entities/ticket-group.entity';
import { TicketTypeColumns } from '../../events/entities/ticket-type.entity';
import type { EventSeries } from './event-series.entity';

/**
 * A series' template: the ticket types, groups and payment methods a new date of it starts with,
 * shaped as an event's (src/events/entities). Their ids are their own, apart from the events'.
 */

@Entity({ name: 'event_series_ticket_groups' })
@Index('IDX_event_series_ticket_groups_series', ['seriesId', 'sortOrder', 'id'])
export class EventSeriesTicketGroup extends TicketGroupColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_series_id', type: 'integer' })
  seriesId: number;

  @ManyToOne('EventSeries', 'ticketGroups', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  series?: EventSeries;
}

@Entity({ name: 'event_series_ticket_types' })
@Index('IDX_event_series_ticket_types_series', ['seriesId', 'sortOrder', 'id'])
@Index('IDX_event_series_ticket_types_group', ['groupId', 'sortOrder', 'id'])
export class EventSeriesTicketType extends TicketTypeColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_series_id', type: 'integer' })
  seriesId: number;

  @ManyToOne('EventSeries', 'ticketTypes', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  series?: EventSeries;

  @ManyToOne('EventSeriesTicketGroup', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'group_id' })
  group?: EventSeriesTicketGroup | null;

  /** The capacity each new date starts with. */
  @Column({ name: 'quantity_total', type: 'integer' })
  quantityTotal: number;
}

@Entity({ name: 'event_series_payment_methods' })
@Index('IDX_event_series_payment_methods_series', ['seriesId', 'id'])
export class EventSeriesPaymentMethod extends PaymentMethodColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_series_id', type: 'integer' })
  seriesId: number;

  @ManyToOne('EventSeries', 'paymentMethods', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_series_id' })
  series?: EventSeries;
}
