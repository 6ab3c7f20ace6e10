import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { TicketTypeKind, TicketTypeStatus } from '../../common/statuses';
import type { Event } from './event.entity';
import type { TicketGroup } from './ticket-group.entity';

/**
 * The columns of a ticket type, an event's or a series template's
 * (src/event-series/entities/event-series-template.entity.ts): each table adds its id, owner,
 * group relation and stock.
 */
export abstract class TicketTypeColumns {
  @Column({ name: 'group_id', type: Number, nullable: true })
  groupId: number | null;

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

  @Column({ type: 'varchar', length: 16 })
  status: TicketTypeStatus;

  @Column({ type: 'varchar', length: 16 })
  type: TicketTypeKind;

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;

  /** The code that reveals a hidden ticket type; null when it needs none. */
  @Column({ name: 'access_code', type: String, length: 64, nullable: true })
  accessCode: string | null;
}

/**
 * What an event sells: a price (integer minor units of the event's currency, 0 when `free`), a
 * booking fee per ticket, per-order bounds, and its stock: capacity, valid tickets issued (kept
 * by triggers, migration EventSeries), held and in baskets. What is left is served as capacity
 * minus the other three (0 when `sold_out`).
 */
@Entity({ name: 'ticket_types' })
@Index('IDX_ticket_types_event', ['eventId', 'sortOrder', 'id'])
@Index('IDX_ticket_types_group', ['groupId', 'sortOrder', 'id'])
export class TicketType extends TicketTypeColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @ManyToOne('Event', 'ticketTypes', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @ManyToOne('TicketGroup', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'group_id' })
  group?: TicketGroup | null;

  /** Capacity. */
  @Column({ name: 'quantity_total', type: 'integer', default: 0 })
  quantityTotal: number;

  /** Its valid issued tickets, kept exact by triggers on issued_tickets. */
  @Column({ name: 'quantity_issued', type: 'integer', default: 0 })
  quantityIssued: number;

  @Column({ name: 'quantity_held', type: 'integer', default: 0 })
  quantityHeld: number;

  @Column({ name: 'quantity_in_baskets', type: 'integer', default: 0 })
  quantityInBaskets: number;
}
