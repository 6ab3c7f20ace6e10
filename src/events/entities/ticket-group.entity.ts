import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { Event } from './event.entity';

/**
 * The columns of a group of ticket types, an event's or a series template's
 * (src/event-series/entities/event-series-template.entity.ts): each table adds its id and owner.
 */
export abstract class TicketGroupColumns {
  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** The most tickets of the group's types one order may hold; null for no limit. */
  @Column({ name: 'max_per_order', type: Number, nullable: true })
  maxPerOrder: number | null;

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;
}

/** Ticket types an event shows together (`Seating`, `Packages`), in `sort_order`. */
@Entity({ name: 'ticket_groups' })
@Index('IDX_ticket_groups_event', ['eventId', 'sortOrder', 'id'])
export class TicketGroup extends TicketGroupColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @ManyToOne('Event', 'ticketGroups', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;
}
